/**
 * The partner set-up every kind of test needs, written once: the API tests call it through
 * `fastify.inject`, the process tests and the bench over HTTP.
 */

/** One set-up call: JSON in and out, anything but a 2xx fails. */
export type SetUpApi = <T = Record<string, unknown>>(
  method: "GET" | "POST",
  url: string,
  token: string,
  body?: object,
) => Promise<T>;

export type Party = { token: string; organizationId: string };
export type AdInput = { name: string; description: string; ctaText: string; ctaUrl: string };

/**
 * Two organizations that are each other's Buddies, and the advertiser's active ad as the sharer
 * shares it: the sharer's signed tracked link to it, and that link's short form.
 */
export async function shareAdBetweenBuddies(api: SetUpApi, sharer: Party, advertiser: Party, ad: AdInput) {
  const relationships = {
    sharerToAdvertiser: await api<{ id: string }>("POST", "/api/relationships", sharer.token, {
      organizationId: advertiser.organizationId,
      type: "complement",
    }),
    advertiserToSharer: await api<{ id: string }>("POST", "/api/relationships", advertiser.token, {
      organizationId: sharer.organizationId,
      type: "complement",
    }),
  };
  const collateral = await api<{ id: string; ctaUrl: string }>(
    "POST",
    "/api/marketing/collateral",
    advertiser.token,
    { ...ad, status: "active" },
  );
  const listed = await api<{ id: string; trackedUrl?: string }[]>(
    "GET",
    `/api/marketing/collateral?organizationId=${advertiser.organizationId}`,
    sharer.token,
  );
  const trackedUrl = listed.find((item) => item.id === collateral.id)?.trackedUrl;
  if (!trackedUrl) throw new Error(`the sharer does not see the advertiser's ad: ${JSON.stringify(listed)}`);
  const { shortUrl } = await api<{ shortUrl: string }>("POST", "/api/short-url", sharer.token, {
    longUrl: trackedUrl,
  });
  return { relationships, collateral, trackedUrl, shortUrl };
}
