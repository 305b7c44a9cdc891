import { expect } from "vitest";
import { createOrganization, TEST_PUBLIC_URL, type TestApp } from "./app";

export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

/**
 * Two organizations that are each other's Buddies, each with an active ad on its own site, and a
 * browser's click on the partner's tracked link to the first one's ad: a click id the first
 * organization (and its API key) can record leads for, and the link's short form.
 */
export async function createBuddies(t: TestApp, labels: [string, string]) {
  const org = await createOrganization(t, labels[0]);
  const partner = await createOrganization(t, labels[1]);
  const post = async (headers: Record<string, string>, url: string, payload: object) => {
    const response = await t.app.inject({ method: "POST", url, headers, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  };
  const adOf = async (headers: Record<string, string>) => {
    const { website } = (await t.app.inject({ url: "/api/organization", headers })).json();
    const ad = {
      name: "Try it",
      description: "The best tool.",
      ctaText: "Start",
      ctaUrl: `${website}/start`,
    };
    return post(headers, "/api/marketing/collateral", { ...ad, status: "active" });
  };
  const relationships = {
    toPartner: await post(org.headers, "/api/relationships", {
      organizationId: partner.organizationId,
      type: "complement",
    }),
    toOrg: await post(partner.headers, "/api/relationships", {
      organizationId: org.organizationId,
      type: "complement",
    }),
  };
  const ads = { org: await adOf(org.headers), partner: await adOf(partner.headers) };
  const listed = await t.app.inject({
    url: `/api/marketing/collateral?organizationId=${org.organizationId}`,
    headers: partner.headers,
  });
  const trackedUrl: string = listed.json()[0].trackedUrl;
  const click = await t.app.inject({
    url: trackedUrl.slice(TEST_PUBLIC_URL.length),
    headers: { "user-agent": BROWSER_USER_AGENT },
  });
  const clickId = new URL(click.headers.location as string).searchParams.get("bclickid") ?? "";
  const { shortUrl } = await post(partner.headers, "/api/short-url", { longUrl: trackedUrl });
  return {
    org,
    partner,
    relationships,
    ads,
    trackedUrl,
    clickId,
    shortPath: (shortUrl as string).slice(TEST_PUBLIC_URL.length),
  };
}
