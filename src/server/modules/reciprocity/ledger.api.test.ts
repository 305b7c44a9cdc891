import { DAY_MS } from "@shared/days";
import { adWeight, LEDGER_DAYS_MESSAGE } from "@shared/reciprocity";
import type { PartnerLedger } from "@shared/reciprocity-schemas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pairDailyStats } from "../../db/schema";
import {
  addMember,
  authHeader,
  createApiKey,
  createOrganization,
  createTestApp,
  relate,
  type TestApp,
} from "../../testing/app";
import { clickThrough } from "../../testing/buddies";
import { type SetUpApi, shareAdBetweenBuddies } from "../../testing/partner-setup";

/** CONTRACT §10's ledger through the API, after real traffic both ways. */
let t: TestApp;
type Org = Awaited<ReturnType<typeof createOrganization>>;
let caller: Org;
let p1: Org;
let p2: Org;
let p3: Org;
let rival: Org;
let visitor = 0;

const ad = (domain: string) => ({
  name: "Try it",
  description: "The best tool.",
  ctaText: "Start",
  ctaUrl: `https://${domain}/start`,
});

async function clicks(trackedUrl: string, count: number) {
  const ids: string[] = [];
  // Each from its own visitor and network source (/24): no repeat or source cap decides here.
  for (let i = 0; i < count; i++) {
    visitor++;
    ids.push(await clickThrough(t, trackedUrl, `198.${18 + (visitor >> 8)}.${visitor & 255}.7`));
  }
  return ids;
}

const ledger = (org: Org, query = "") =>
  t.app.inject({ url: `/api/metrics/partners${query}`, headers: org.headers });

beforeAll(async () => {
  t = await createTestApp();
  caller = await createOrganization(t, "ledgercaller");
  p1 = await createOrganization(t, "ledgerpone");
  p2 = await createOrganization(t, "ledgerptwo");
  p3 = await createOrganization(t, "ledgerpthree");
  rival = await createOrganization(t, "ledgerrival");
  const api: SetUpApi = async (method, url, token, body) => {
    const response = await t.app.inject({ method, url, headers: authHeader(token), payload: body });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  };
  const toP1 = await shareAdBetweenBuddies(api, caller, p1, ad(p1.domain));
  const fromP1 = await shareAdBetweenBuddies(api, p1, caller, ad(caller.domain));
  const toP2 = await shareAdBetweenBuddies(api, caller, p2, ad(p2.domain));
  await relate(t, caller, p3.organizationId, "complement");
  await relate(t, caller, rival.organizationId, "competitor");

  // The caller sends p1 7 clicks and p2 3; p1 sends the caller 12.
  const [leadClick] = await clicks(toP1.trackedUrl, 7);
  await clicks(fromP1.trackedUrl, 12);
  await clicks(toP2.trackedUrl, 3);
  // p1 records two leads from the caller's click: a sign-up, then a purchase worth 50 EUR.
  const key = await createApiKey(t, p1);
  for (const payload of [
    { clickId: leadClick, type: "signup" },
    { clickId: leadClick, type: "purchase", value: 50, currency: "EUR", eventId: "ledger-1" },
  ]) {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/marketing/conversion",
      headers: { "x-api-key": key.key },
      payload,
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  // Older traffic, 60 days ago: inside a 90-day window, outside a 30-day one. And traffic with the
  // blocked company from before it was blocked.
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
  await t.database.db.insert(pairDailyStats).values([
    {
      day: day(60),
      sourceOrgId: p2.organizationId,
      targetOrgId: caller.organizationId,
      clicks: 40,
      leads: 2,
    },
    {
      day: day(5),
      sourceOrgId: caller.organizationId,
      targetOrgId: rival.organizationId,
      clicks: 9,
      leads: 0,
    },
  ]);
});
afterAll(() => t.close());

describe("GET /api/metrics/partners", () => {
  it("lists what the caller and each partner gave each other over 30 days, most traffic first", async () => {
    const response = await ledger(caller);
    expect(response.statusCode, response.body).toBe(200);
    const { partners } = response.json() as { partners: PartnerLedger[] };
    expect(partners).toEqual([
      {
        organizationId: p1.organizationId,
        name: "ledgerpone",
        clicks: { sent: 7, received: 12 },
        leads: { sent: 2, received: 0 },
        revenue: { sent: [{ currency: "EUR", value: 50 }], received: [] },
        balance: 5,
        // p1 recorded two leads and a sale of the caller's with its key: proof the caller gave.
        adWeight: adWeight({ sent: 7, received: 12 }, { sent: 3, received: 0 }),
      },
      {
        organizationId: p2.organizationId,
        name: "ledgerptwo",
        clicks: { sent: 3, received: 0 },
        leads: { sent: 0, received: 0 },
        revenue: { sent: [], received: [] },
        balance: -3,
        adWeight: adWeight({ sent: 3, received: 0 }),
      },
      // A Buddy with no traffic yet is listed; the blocked company never is, traffic or not.
      {
        organizationId: p3.organizationId,
        name: "ledgerpthree",
        clicks: { sent: 0, received: 0 },
        leads: { sent: 0, received: 0 },
        revenue: { sent: [], received: [] },
        balance: 0,
        adWeight: 1,
      },
    ]);
    expect(response.body).not.toContain(rival.organizationId);
  });

  it("takes its window from days", async () => {
    const wide = (await ledger(caller, "?days=90")).json().partners as PartnerLedger[];
    const two = wide.find((partner) => partner.organizationId === p2.organizationId);
    expect(two).toMatchObject({
      clicks: { sent: 3, received: 40 },
      leads: { sent: 0, received: 2 },
      balance: 37,
    });
    expect(wide.map((partner) => partner.organizationId)).toEqual([
      p2.organizationId,
      p1.organizationId,
      p3.organizationId,
    ]);
    const today = (await ledger(caller, "?days=1")).json().partners as PartnerLedger[];
    expect(today.find((partner) => partner.organizationId === p1.organizationId)?.clicks).toEqual({
      sent: 7,
      received: 12,
    });
  });

  it("matches /api/metrics/clicks and /api/metrics/leads exactly", async () => {
    const partners = (await ledger(p1, "?days=365")).json().partners as PartnerLedger[];
    const sum = (pick: (partner: PartnerLedger) => number) =>
      partners.reduce((total, partner) => total + pick(partner), 0);
    const clicksTotal = (await t.app.inject({ url: "/api/metrics/clicks", headers: p1.headers })).json();
    const leadsTotal = (await t.app.inject({ url: "/api/metrics/leads", headers: p1.headers })).json();
    expect({ sent: sum((p) => p.clicks.sent), received: sum((p) => p.clicks.received) }).toEqual(clicksTotal);
    expect({ sent: sum((p) => p.leads.sent), received: sum((p) => p.leads.received) }).toEqual(leadsTotal);
    // Seen from the other side, the same pair the other way round.
    const [callerSeenByP1] = partners;
    expect(callerSeenByP1).toMatchObject({
      organizationId: caller.organizationId,
      clicks: { sent: 12, received: 7 },
      leads: { sent: 0, received: 2 },
      revenue: { sent: [], received: [{ currency: "EUR", value: 50 }] },
      balance: -5,
    });
  });

  it("refuses a days it does not know with 400", async () => {
    for (const days of ["0", "366", "abc", "7.5", "-3", ""]) {
      const response = await ledger(caller, `?days=${days}`);
      expect(response.statusCode, days).toBe(400);
      expect(response.json().message).toContain(LEDGER_DAYS_MESSAGE);
    }
  });

  it("is for members too, and for nobody outside", async () => {
    const member = await addMember(t, caller.organizationId);
    expect((await t.app.inject({ url: "/api/metrics/partners", headers: member.headers })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ url: "/api/metrics/partners" })).statusCode).toBe(401);
    // Another organization sees its own ledger, where the caller's partners are not.
    const outsider = (await ledger(rival)).json().partners as PartnerLedger[];
    expect(outsider).toEqual([]);
  });
});
