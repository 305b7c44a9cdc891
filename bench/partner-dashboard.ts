// The dashboard Lighthouse audits is a partner's as it lives after a few days: two Buddies that
// publish ads, trade clicks, and send each other leads and purchases, so the overview shows
// figures, revenue, the chart and the reciprocity ledger rather than empty states.
import type { BuddyProcess } from "../src/server/testing/buddy-process";

type Json = Record<string, unknown>;

async function call(
  origin: string,
  url: string,
  init: { method?: string; token?: string; key?: string; body?: Json },
) {
  const response = await fetch(`${origin}${url}`, {
    method: init.method ?? (init.body ? "POST" : "GET"),
    redirect: "manual",
    headers: {
      ...(init.body ? { "content-type": "application/json" } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.key ? { "x-api-key": init.key } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Json>;
}

type Company = { token: string; id: string; domain: string; key: string; trackedUrl?: string };

async function company(buddy: BuddyProcess, label: string, description: string): Promise<Company> {
  const token = await buddy.createOrganization(label, description);
  const organization = await call(buddy.origin, "/api/organization", { token });
  const { key } = (await call(buddy.origin, "/api/api-keys", { token, body: { name: "Shop" } })) as {
    key: string;
  };
  await call(buddy.origin, "/api/marketing/collateral", {
    token,
    body: {
      type: "email_cta",
      name: "Try it free for 30 days",
      description,
      ctaText: "Start free",
      ctaUrl: `https://${organization.domain}/signup`,
      imageUrl: null,
      status: "active",
    },
  });
  return { token, id: String(organization.id), domain: String(organization.domain), key };
}

let readers = 0;

/** A reader of the sharer's newsletter follows the advertiser's link: the click id it lands with. */
async function click(trackedUrl: string): Promise<string> {
  readers += 1;
  const response = await fetch(trackedUrl, {
    redirect: "manual",
    headers: {
      "user-agent": `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.${readers}.0 Safari/537.36`,
    },
  });
  const clickId = new URL(response.headers.get("location") ?? "", trackedUrl).searchParams.get("bclickid");
  if (response.status !== 302 || !clickId) throw new Error(`${trackedUrl}: ${response.status}, no click id`);
  return clickId;
}

/** The sharer's readers click the advertiser's ad; some sign up and a few of them buy. */
async function trade(
  origin: string,
  sharer: Company,
  advertiser: Company,
  traffic: { clicks: number; leads: number; purchases: number[] },
) {
  const [ad] = (await call(origin, `/api/marketing/collateral?organizationId=${advertiser.id}`, {
    token: sharer.token,
  })) as unknown as { trackedUrl: string }[];
  if (!ad?.trackedUrl) throw new Error("the advertiser's ad has no tracked link");
  const clickIds: string[] = [];
  for (let i = 0; i < traffic.clicks; i++) clickIds.push(await click(ad.trackedUrl));
  for (const [index, clickId] of clickIds.slice(0, traffic.leads).entries()) {
    const value = traffic.purchases[index];
    await call(origin, "/api/marketing/conversion", {
      key: advertiser.key,
      body:
        value === undefined
          ? { clickId, type: "signup" }
          : { clickId, type: "purchase", value, currency: "USD" },
    });
  }
}

/** Two Buddies with traffic both ways (all of it today): the first one's session token, to audit its dashboard. */
export async function partnerDashboard(buddy: BuddyProcess): Promise<string> {
  const ours = await company(buddy, "lighthouse", "An e-mail marketing tool for newsletters");
  const theirs = await company(buddy, "quillmail", "Forms and surveys that feed your mailing list");
  await call(buddy.origin, "/api/relationships", {
    token: ours.token,
    body: { type: "complement", organizationId: theirs.id },
  });
  await call(buddy.origin, "/api/relationships", {
    token: theirs.token,
    body: { type: "complement", organizationId: ours.id },
  });
  await trade(buddy.origin, ours, theirs, { clicks: 24, leads: 6, purchases: [49.99, 129, 19.5] });
  await trade(buddy.origin, theirs, ours, { clicks: 17, leads: 4, purchases: [79] });
  return ours.token;
}
