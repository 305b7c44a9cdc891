import type { Activity } from "@shared/tracking";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, createOrganization, createTestApp, type TestApp } from "../../../testing/app";
import { clickThrough, createSharedAds } from "../../../testing/buddies";

/**
 * GET /api/activity names amounts: a conversion with a value is a sale with its amount, a refund
 * is listed with what it took back, and each side reads only its own pairs' amounts.
 */
let t: TestApp;
let sharer: Awaited<ReturnType<typeof createOrganization>>;
let advertiser: Awaited<ReturnType<typeof createOrganization>>;
let otherSharer: Awaited<ReturnType<typeof createOrganization>>;
let outsider: Awaited<ReturnType<typeof createOrganization>>;
let trackedUrl: string;
let otherTrackedUrl: string;
let advertiserKey: string;
let visitor = 0;

beforeAll(async () => {
  t = await createTestApp();
  const shared = await createSharedAds(
    t,
    ["activitysharer", "activityadvertiser"],
    [{ name: "Try it", description: "The best tool.", ctaText: "Start" }],
  );
  ({ sharer, advertiser } = shared);
  trackedUrl = shared.trackedUrls[0] as string;
  advertiserKey = (await createApiKey(t, advertiser)).key;

  // A second sharer of the same ad: its sales are the advertiser's, never the first sharer's.
  otherSharer = await createOrganization(t, "activityothersharer");
  const added = await t.app.inject({
    method: "POST",
    url: "/api/relationships",
    headers: otherSharer.headers,
    payload: { organizationId: advertiser.organizationId, type: "complement" },
  });
  expect(added.statusCode, added.body).toBe(201);
  const list = await t.app.inject({
    url: `/api/marketing/collateral?organizationId=${advertiser.organizationId}`,
    headers: otherSharer.headers,
  });
  otherTrackedUrl = list.json()[0].trackedUrl;
  outsider = await createOrganization(t, "activityoutsider");
});
afterAll(() => t.close());

async function convert(link: string, payload: object): Promise<string> {
  visitor++;
  const clickId = await clickThrough(t, link, `198.51.100.${visitor}`);
  const response = await t.app.inject({
    method: "POST",
    url: "/api/marketing/conversion",
    headers: { "x-api-key": advertiserKey },
    payload: { clickId, ...payload },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

async function activityOf(org: { headers: Record<string, string> }): Promise<Activity> {
  const response = await t.app.inject({ url: "/api/activity", headers: org.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const amounted = (items: Activity) => items.filter((item) => item.amount !== null);

describe("GET /api/activity with amounts", () => {
  it("lists a purchase with a value as a sale with its amount on both sides, a lead without one as a lead", async () => {
    await convert(trackedUrl, { type: "signup" });
    await convert(trackedUrl, { type: "purchase", value: 49.99, currency: "USD" });

    const received = await activityOf(advertiser);
    expect(received[0]).toEqual({
      kind: "sale_received",
      at: expect.any(String),
      organization: { id: sharer.organizationId, name: expect.any(String) },
      detail: "purchase",
      amount: { currency: "USD", value: 49.99 },
    });
    expect(received.find((item) => item.kind === "lead_received")).toMatchObject({
      detail: "signup",
      amount: null,
    });
    const sent = await activityOf(sharer);
    expect(sent[0]).toMatchObject({
      kind: "sale_sent",
      organization: { id: advertiser.organizationId },
      detail: "purchase",
      amount: { currency: "USD", value: 49.99 },
    });
    // Clicks and new Buddies carry no amount.
    for (const item of sent.filter((entry) => !entry.kind.startsWith("sale_")))
      expect(item.amount).toBeNull();
  });

  it("keeps each currency's decimals: ¥500 is 500, 1.234 BHD is 1.234", async () => {
    await convert(trackedUrl, { type: "upgrade", value: 500, currency: "JPY" });
    await convert(trackedUrl, { type: "purchase", value: 1.234, currency: "BHD" });
    const amounts = amounted(await activityOf(sharer)).map((item) => item.amount);
    expect(amounts.slice(0, 2)).toEqual([
      { currency: "BHD", value: 1.234 },
      { currency: "JPY", value: 500 },
    ]);
  });

  it("lists a refund with what it took back, for both sides", async () => {
    const id = await convert(trackedUrl, { type: "purchase", value: 80, currency: "EUR" });
    const refunded = await t.app.inject({
      method: "POST",
      url: "/api/marketing/refunds",
      headers: { "x-api-key": advertiserKey },
      payload: { conversionId: id, refundId: "activity-refund-1", value: 30.5 },
    });
    expect(refunded.statusCode, refunded.body).toBe(201);
    for (const [org, kind, other] of [
      [advertiser, "refund_received", sharer],
      [sharer, "refund_sent", advertiser],
    ] as const) {
      const [latest] = await activityOf(org);
      expect(latest).toMatchObject({
        kind,
        organization: { id: other.organizationId },
        detail: "refund",
        amount: { currency: "EUR", value: 30.5 },
      });
    }
  });

  it("never shows another organization's amounts", async () => {
    await convert(otherTrackedUrl, { type: "purchase", value: 777.77, currency: "GBP" });
    // The advertiser sees the other sharer's sale; the first sharer and an outsider do not.
    expect((await activityOf(advertiser))[0]).toMatchObject({
      kind: "sale_received",
      organization: { id: otherSharer.organizationId },
      amount: { currency: "GBP", value: 777.77 },
    });
    const sharerItems = await activityOf(sharer);
    expect(sharerItems.some((item) => item.amount?.currency === "GBP")).toBe(false);
    expect(sharerItems.every((item) => item.organization.id === advertiser.organizationId)).toBe(true);
    expect(amounted(await activityOf(otherSharer))).toEqual([
      expect.objectContaining({ kind: "sale_sent", amount: { currency: "GBP", value: 777.77 } }),
    ]);
    expect(await activityOf(outsider)).toEqual([]);
  });
});
