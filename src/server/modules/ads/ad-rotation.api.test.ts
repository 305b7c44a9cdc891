import { adWeight } from "@shared/reciprocity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pairDailyStats } from "../../db/schema";
import { createApiKey, createOrganization, createTestApp, relate, type TestApp } from "../../testing/app";
import { seededRandom } from "../../testing/seeded-random";

/** CONTRACT §10: the Ads API draws partners in proportion to their weights for the caller. */
let t: TestApp;
type Org = Awaited<ReturnType<typeof createOrganization>>;
let caller: Org;
let partners: { giver: Org; even: Org; taker: Org; rival: Org };
let key: string;

async function publish(org: Org, name: string) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/marketing/collateral",
    headers: org.headers,
    payload: {
      name,
      description: `About ${name}`,
      ctaText: "Try it",
      ctaUrl: `https://${org.domain}/go`,
      status: "active",
    },
  });
  expect(response.statusCode, response.body).toBe(201);
}

beforeAll(async () => {
  t = await createTestApp({ random: seededRandom(2026) });
  caller = await createOrganization(t, "rotcaller");
  partners = {
    giver: await createOrganization(t, "rotgiver"),
    even: await createOrganization(t, "roteven"),
    taker: await createOrganization(t, "rottaker"),
    rival: await createOrganization(t, "rotrival"),
  };
  for (const partner of [partners.giver, partners.even, partners.taker, partners.rival]) {
    await relate(t, caller, partner.organizationId, "complement");
    await publish(partner, `${partner.domain} one`);
  }
  // The giver has two ads: it is drawn by its weight, not by how many ads it has.
  await publish(partners.giver, "rotgiver two");
  // The rival blocks the caller: never in its rotation, whatever its traffic.
  await relate(t, partners.rival, caller.organizationId, "competitor");
  // Over the last 30 days the giver sent the caller 30 clicks and 3 leads the caller recorded with
  // its own key, and the caller sent the taker 30 clicks.
  const today = new Date().toISOString().slice(0, 10);
  await t.database.db.insert(pairDailyStats).values([
    {
      day: today,
      sourceOrgId: partners.giver.organizationId,
      targetOrgId: caller.organizationId,
      clicks: 30,
      leads: 3,
      provenLeads: 3,
    },
    {
      day: today,
      sourceOrgId: caller.organizationId,
      targetOrgId: partners.taker.organizationId,
      clicks: 30,
    },
    {
      day: today,
      sourceOrgId: partners.rival.organizationId,
      targetOrgId: caller.organizationId,
      clicks: 500,
    },
  ]);
  key = (await createApiKey(t, caller)).key;
});
afterAll(() => t.close());

const domainOf = (ad: { company: { domain: string } }) => ad.company.domain;

describe("GET /api/ads rotation", () => {
  it("gives each partner its weight's share of 2,000 draws, within 2 points", async () => {
    const weights = {
      [partners.giver.domain]: adWeight({ sent: 0, received: 30 }, { sent: 0, received: 3 }),
      [partners.even.domain]: 1,
      [partners.taker.domain]: adWeight({ sent: 30, received: 0 }),
    };
    expect(Object.values(weights)).toEqual([4, 1, 0.25]);
    const counts = new Map<string, number>();
    const draws = 2_000;
    for (let i = 0; i < draws; i++) {
      const response = await t.app.inject({ url: "/api/ads", headers: { "x-api-key": key } });
      expect(response.statusCode).toBe(200);
      const [ad] = response.json().ads;
      counts.set(domainOf(ad), (counts.get(domainOf(ad)) ?? 0) + 1);
    }
    const total = Object.values(weights).reduce((sum, weight) => sum + weight, 0);
    const shares = Object.fromEntries([...counts].map(([domain, n]) => [domain, n / draws]));
    for (const [domain, weight] of Object.entries(weights)) {
      expect(
        Math.abs((shares[domain] ?? 0) - weight / total),
        `${domain}: ${JSON.stringify(shares)}`,
      ).toBeLessThan(0.02);
    }
    expect(counts.has(partners.rival.domain)).toBe(false);
  }, 60_000);

  it("shows the same weights in the ledger", async () => {
    const response = await t.app.inject({ url: "/api/metrics/partners", headers: caller.headers });
    const byName = Object.fromEntries(
      (response.json().partners as { name: string; adWeight: number }[]).map((p) => [p.name, p.adWeight]),
    );
    expect(byName).toEqual({ rotgiver: 4, roteven: 1, rottaker: 0.25 });
  });

  it("repeats no partner within one answer while others remain", async () => {
    for (let i = 0; i < 50; i++) {
      const response = await t.app.inject({ url: "/api/ads?limit=3", headers: { "x-api-key": key } });
      const domains = (response.json().ads as { company: { domain: string } }[]).map(domainOf);
      expect(new Set(domains).size, domains.join()).toBe(3);
    }
    const all = await t.app.inject({ url: "/api/ads?limit=5", headers: { "x-api-key": key } });
    expect(all.json().ads).toHaveLength(4);
  });
});
