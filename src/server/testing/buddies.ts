import { expect } from "vitest";
import { authHeader, createOrganization, TEST_PUBLIC_URL, type TestApp } from "./app";
import { type SetUpApi, shareAdBetweenBuddies } from "./partner-setup";

/** A POST that must succeed (any 2xx, or exactly `status`): set-up, not the behaviour under test. */
async function postOk(
  t: TestApp,
  headers: Record<string, string>,
  url: string,
  payload: object,
  status?: number,
) {
  const response = await t.app.inject({ method: "POST", url, headers, payload });
  if (status === undefined) expect(response.statusCode, response.body).toBeLessThan(300);
  else expect(response.statusCode, response.body).toBe(status);
  return response.json();
}

export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

/**
 * A reader's browser follows a tracked link (from `remoteAddress`, one visitor per address): the
 * click id the landing page receives.
 */
export async function clickThrough(t: TestApp, trackedUrl: string, remoteAddress?: string): Promise<string> {
  const response = await t.app.inject({
    url: trackedUrl.slice(TEST_PUBLIC_URL.length),
    headers: { "user-agent": BROWSER_USER_AGENT },
    remoteAddress,
  });
  return new URL(response.headers.location as string).searchParams.get("bclickid") ?? "";
}

/**
 * Two organizations that are each other's Buddies, each with an active ad on its own site, and a
 * browser's click on the partner's tracked link to the first one's ad: a click id the first
 * organization (and its API key) can record leads for, and the link's short form.
 */
export async function createBuddies(t: TestApp, labels: [string, string]) {
  const org = await createOrganization(t, labels[0]);
  const partner = await createOrganization(t, labels[1]);
  const api = injectApi(t);
  const adOf = (domain: string) => ({
    name: "Try it",
    description: "The best tool.",
    ctaText: "Start",
    ctaUrl: `https://${domain}/start`,
  });
  const shared = await shareAdBetweenBuddies(api, partner, org, adOf(org.domain));
  const ads = {
    org: shared.collateral,
    partner: await api<{ id: string; ctaUrl: string }>("POST", "/api/marketing/collateral", partner.token, {
      ...adOf(partner.domain),
      status: "active",
    }),
  };
  const clickId = await clickThrough(t, shared.trackedUrl);
  return {
    org,
    partner,
    relationships: {
      toPartner: shared.relationships.advertiserToSharer,
      toOrg: shared.relationships.sharerToAdvertiser,
    },
    ads,
    trackedUrl: shared.trackedUrl,
    clickId,
    shortPath: shared.shortUrl.slice(TEST_PUBLIC_URL.length),
  };
}

/** The set-up's calls through `fastify.inject`, as a signed-in user of each organization. */
const injectApi =
  (t: TestApp): SetUpApi =>
  async (method, url, token, body) => {
    const response = await t.app.inject({ method, url, headers: authHeader(token), payload: body });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  };

/** An ad's fields; without `ctaUrl` it links to `https://<advertiser's domain>/go`. */
export type AdFields = { name: string; description: string; ctaText: string; ctaUrl?: string };

/**
 * Two organizations, a sharer and an advertiser: the sharer has added the advertiser as its Buddy
 * (one way), and the advertiser has published one active ad per entry of `ads`. Returns the ads' ids
 * in the order given, and the sharer's tracked links to them as the collateral list orders them.
 */
export async function createSharedAds(
  t: TestApp,
  labels: [sharer: string, advertiser: string],
  ads: AdFields[],
) {
  const sharer = await createOrganization(t, labels[0]);
  const advertiser = await createOrganization(t, labels[1]);
  const relationship = await postOk(
    t,
    sharer.headers,
    "/api/relationships",
    {
      organizationId: advertiser.organizationId,
      type: "complement",
    },
    201,
  );
  const adIds: string[] = [];
  for (const ad of ads) {
    const ctaUrl = ad.ctaUrl ?? `https://${advertiser.domain}/go`;
    const created = await postOk(
      t,
      advertiser.headers,
      "/api/marketing/collateral",
      {
        ...ad,
        ctaUrl,
        status: "active",
      },
      201,
    );
    adIds.push(created.id);
  }
  const list = await t.app.inject({
    url: `/api/marketing/collateral?organizationId=${advertiser.organizationId}`,
    headers: sharer.headers,
  });
  const trackedUrls: string[] = list.json().map((item: { trackedUrl: string }) => item.trackedUrl);
  return { sharer, advertiser, relationshipId: relationship.id as string, adIds, trackedUrls };
}
