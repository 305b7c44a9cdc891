import { AD_WEIGHT_CLICKS_MAX, AD_WEIGHT_MAX, adWeight } from "@shared/reciprocity";
import type { PartnerLedger } from "@shared/reciprocity-schemas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader, createApiKey, createOrganization, createTestApp, type TestApp } from "../../testing/app";
import { BROWSER_USER_AGENT } from "../../testing/buddies";
import { type SetUpApi, shareAdBetweenBuddies } from "../../testing/partner-setup";
import { partnerWeights } from "./ad-weights";

/**
 * CONTRACT §10: counted clicks alone lift a partner's weight to ×2 at most; beyond that it takes
 * leads and sales the caller recorded with its own key (or Stripe), never the pixel's.
 */
let t: TestApp;
type Org = Awaited<ReturnType<typeof createOrganization>>;
let caller: Org;
let partner: Org;
let trackedUrl: string;
let callerKey: string;
let source = 0;

/** A reader of the partner's newsletter follows the caller's ad: its click id. */
async function click(userAgent = BROWSER_USER_AGENT, remoteAddress?: string) {
  source++;
  const response = await t.app.inject({
    url: trackedUrl.slice(trackedUrl.indexOf("/api/")),
    headers: { "user-agent": userAgent },
    remoteAddress: remoteAddress ?? `198.${18 + (source >> 8)}.${source & 255}.9`,
  });
  expect(response.statusCode).toBe(302);
  return new URL(String(response.headers.location)).searchParams.get("bclickid") ?? "";
}

async function ledgerEntry(): Promise<PartnerLedger> {
  const response = await t.app.inject({ url: "/api/metrics/partners", headers: caller.headers });
  expect(response.statusCode, response.body).toBe(200);
  const entry = (response.json() as { partners: PartnerLedger[] }).partners.find(
    (p) => p.organizationId === partner.organizationId,
  );
  if (!entry) throw new Error("the partner is not in the ledger");
  // The Ads API draws by the same weight the ledger shows.
  expect((await partnerWeights(t.database.db, caller.organizationId)).get(partner.organizationId)).toBe(
    entry.adWeight,
  );
  return entry;
}

const api: SetUpApi = async (method, url, token, body) => {
  const response = await t.app.inject({ method, url, headers: authHeader(token), payload: body });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json();
};

/** The partner shares the caller's ad: its readers' clicks are what it gives the caller. */
async function pair(prefix: string) {
  const newCaller = await createOrganization(t, `${prefix}caller`);
  const newPartner = await createOrganization(t, `${prefix}partner`);
  const shared = await shareAdBetweenBuddies(api, newPartner, newCaller, {
    name: "Try it",
    description: "The best tool.",
    ctaText: "Start",
    ctaUrl: `https://${newCaller.domain}/start`,
  });
  return { caller: newCaller, partner: newPartner, trackedUrl: shared.trackedUrl };
}

beforeAll(async () => {
  t = await createTestApp();
  ({ caller, partner, trackedUrl } = await pair("weight"));
  callerKey = (await createApiKey(t, caller)).key;
});
afterAll(() => t.close());

describe("ad weights", () => {
  it("move no further than 3 capped clicks for 35 scripted clicks from one address", async () => {
    for (let i = 0; i < 35; i++)
      await click(`${BROWSER_USER_AGENT} r/${crypto.randomUUID()}`, "203.0.113.77");
    const entry = await ledgerEntry();
    expect(entry.clicks.received).toBe(3);
    expect(entry.adWeight).toBeCloseTo(adWeight({ sent: 0, received: 3 }));
    expect(entry.adWeight).toBeCloseTo(1.3);
  });

  it("reach ×2 by counted clicks alone, and ×4 only with leads the caller recorded with its own key", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(await click());
    expect((await ledgerEntry()).adWeight).toBe(AD_WEIGHT_CLICKS_MAX);

    // Pixel leads are anyone's to send: they prove nothing.
    for (const clickId of ids.slice(0, 3)) {
      const pixel = await t.app.inject({
        url: `/api/marketing/conversion/${clickId}?type=signup&org=${caller.organizationId}`,
        remoteAddress: "192.0.2.10",
      });
      expect(pixel.statusCode).toBe(200);
    }
    const afterPixels = await ledgerEntry();
    expect(afterPixels.leads.received).toBe(3);
    expect(afterPixels.adWeight).toBe(AD_WEIGHT_CLICKS_MAX);

    // Three leads recorded with the caller's own key: proof.
    for (const clickId of ids.slice(3, 6)) {
      const lead = await t.app.inject({
        method: "POST",
        url: "/api/marketing/conversion",
        headers: { "x-api-key": callerKey },
        payload: { clickId, type: "trial" },
      });
      expect(lead.statusCode, lead.body).toBe(201);
    }
    const proven = await ledgerEntry();
    expect(proven.leads.received).toBe(6);
    expect(proven.adWeight).toBe(AD_WEIGHT_MAX);
    expect(proven.adWeight).toBe(adWeight({ sent: 0, received: 43 }, { sent: 0, received: 3 }));
  });

  it("keep the proof of a sale refunded in full: it was recorded by the caller's own key", async () => {
    ({ caller, partner, trackedUrl } = await pair("refundweight"));
    callerKey = (await createApiKey(t, caller)).key;
    const clickId = await click();
    const sale = await t.app.inject({
      method: "POST",
      url: "/api/marketing/conversion",
      headers: { "x-api-key": callerKey },
      payload: { clickId, type: "purchase", value: 49.99, currency: "USD", eventId: "order-refunded-1" },
    });
    expect(sale.statusCode, sale.body).toBe(201);
    // The click's first purchase is a lead the caller recorded, and a sale: proof twice over.
    const proven = adWeight({ sent: 0, received: 1 }, { sent: 0, received: 2 });
    expect((await ledgerEntry()).adWeight).toBeCloseTo(proven);

    const refund = await t.app.inject({
      method: "POST",
      url: "/api/marketing/refunds",
      headers: { "x-api-key": callerKey },
      payload: { eventId: "order-refunded-1", refundId: "re-weight-1" },
    });
    expect(refund.statusCode, refund.body).toBe(201);
    const entry = await ledgerEntry();
    expect(entry.leads.received).toBe(1);
    expect(entry.adWeight).toBeCloseTo(proven);
    expect(entry.adWeight).toBeGreaterThan(adWeight({ sent: 0, received: 1 }));
  });
});
