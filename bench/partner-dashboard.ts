// The dashboard Lighthouse audits is a partner's as it lives after a few days: two Buddies that
// publish ads, trade clicks, and send each other leads and purchases, so the overview shows
// figures, revenue, the chart and the ledger rather than empty states.
import type { BuddyProcess } from "../src/server/testing/buddy-process";
import { browserAgent, clickIdOf, must, setUpPartners } from "../src/server/testing/instances/partners";

type Side = { origin: string; token: string; key: string };

let readers = 0;

/** Readers follow a link: each from a browser of its own, so every click counts. */
async function clicks(link: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(link, {
      redirect: "manual",
      headers: { "user-agent": browserAgent(readers++) },
    });
    const clickId = clickIdOf(response);
    if (response.status !== 302 || !clickId) throw new Error(`${link}: ${response.status}, no click id`);
    ids.push(clickId);
  }
  return ids;
}

/** The advertiser records sign-ups of the first clicks with its API key, the first few as purchases. */
async function convert(advertiser: Side, clickIds: string[], leads: number, purchases: number[]) {
  for (const [index, clickId] of clickIds.slice(0, leads).entries()) {
    const value = purchases[index];
    const response = await fetch(`${advertiser.origin}/api/marketing/conversion`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": advertiser.key },
      body: JSON.stringify(
        value === undefined
          ? { clickId, type: "signup" }
          : { clickId, type: "purchase", value, currency: "USD" },
      ),
    });
    if (response.status !== 201) throw new Error(`conversion: ${response.status} ${await response.text()}`);
  }
}

const keyOf = async (origin: string, token: string) =>
  (await must<{ key: string }>(origin, "/api/api-keys", token, { method: "POST", body: '{"name":"Shop"}' }))
    .key;

/** Two Buddies with traffic both ways (all of it today): the first one's session token. */
export async function partnerDashboard(buddy: BuddyProcess): Promise<string> {
  const { origin } = buddy;
  const partners = await setUpPartners(origin, buddy.mail, { prefix: "lh" });
  const ours: Side = { origin, token: partners.sharerToken, key: await keyOf(origin, partners.sharerToken) };
  const theirs: Side = {
    origin,
    token: partners.partnerToken,
    key: await keyOf(origin, partners.partnerToken),
  };

  // Our readers follow the partner's ad; theirs follow ours, published here.
  await convert(theirs, await clicks(partners.shortUrl, 24), 6, [49.99, 129, 19.5]);
  await must(origin, "/api/marketing/collateral", ours.token, {
    method: "POST",
    body: JSON.stringify({
      type: "email_cta",
      name: "Try it free for 30 days",
      description: "Product analytics for teams who ship every day",
      ctaText: "Start free",
      ctaUrl: "https://lhsharer.bench.example/signup",
      imageUrl: null,
      status: "active",
    }),
  });
  const [ad] = await must<{ trackedUrl: string }[]>(
    origin,
    `/api/marketing/collateral?organizationId=${partners.sharerId}`,
    theirs.token,
  );
  if (!ad?.trackedUrl) throw new Error("the partner does not see our ad");
  await convert(ours, await clicks(ad.trackedUrl, 17), 4, [79]);
  return ours.token;
}
