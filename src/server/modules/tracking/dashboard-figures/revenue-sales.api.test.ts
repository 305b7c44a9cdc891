import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../testing/app";
import { clickThrough, createSharedAds } from "../../../testing/buddies";

/**
 * GET /api/metrics/revenue counts the sales (conversions with a value) of each currency beside its
 * amount (issue 37): net of refunds as the amounts are, a sale refunded in full still a sale, and
 * another organization's sales never counted.
 */
let t: TestApp;
type Pair = Awaited<ReturnType<typeof createSharedAds>>;
let pair: Pair;
let other: Pair;
let keys: { pair: string; other: string };
let visitor = 0;

const AD = [{ name: "Try it", description: "The best tool.", ctaText: "Start" }];

async function keyFor(headers: Record<string, string>) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/api-keys",
    headers,
    payload: { name: "sales" },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().key as string;
}

/** A reader of the sharer clicks through and converts at the advertiser: the conversion's id. */
async function convert(of: Pair, key: string, money?: { value: number; currency: string }) {
  visitor++;
  const clickId = await clickThrough(t, of.trackedUrls[0] as string, `203.0.${visitor}.7`);
  const response = await t.app.inject({
    method: "POST",
    url: "/api/marketing/conversion",
    headers: { "x-api-key": key },
    payload: { clickId, type: "purchase", ...money },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

async function refund(key: string, conversionId: string, value?: number) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/marketing/refunds",
    headers: { "x-api-key": key },
    payload: {
      conversionId,
      refundId: `re_${crypto.randomUUID()}`,
      ...(value === undefined ? {} : { value }),
    },
  });
  expect(response.statusCode, response.body).toBe(201);
}

const revenueOf = async (headers: Record<string, string>, query = "") => {
  const response = await t.app.inject({ url: `/api/metrics/revenue${query}`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

beforeAll(async () => {
  t = await createTestApp();
  pair = await createSharedAds(t, ["salessharer", "salesadvertiser"], AD);
  other = await createSharedAds(t, ["salesothersharer", "salesotheradvertiser"], AD);
  keys = { pair: await keyFor(pair.advertiser.headers), other: await keyFor(other.advertiser.headers) };
});
afterAll(() => t.close());

describe("the sales beside the revenue", () => {
  it("counts each currency's sales both ways, net amounts, a sale refunded in full still a sale", async () => {
    const usd = await convert(pair, keys.pair, { value: 49.99, currency: "USD" });
    await convert(pair, keys.pair, { value: 10, currency: "USD" });
    const eur = await convert(pair, keys.pair, { value: 100, currency: "EUR" });
    // A lead without a value is no sale.
    await convert(pair, keys.pair);
    await refund(keys.pair, usd, 5);
    await refund(keys.pair, eur);
    // Another organization's sales, in the same currencies, between its own pair.
    for (const value of [20, 30, 40]) await convert(other, keys.other, { value, currency: "USD" });

    const expected = [
      { currency: "EUR", value: 0, sales: 1 },
      { currency: "USD", value: 54.99, sales: 2 },
    ];
    expect(await revenueOf(pair.advertiser.headers)).toEqual({ sent: [], received: expected });
    expect(await revenueOf(pair.sharer.headers)).toEqual({ sent: expected, received: [] });
    // One partner's: the same for the pair, nothing with an organization that is not its partner.
    expect(await revenueOf(pair.sharer.headers, `?partnerId=${pair.advertiser.organizationId}`)).toEqual({
      sent: expected,
      received: [],
    });
    expect(await revenueOf(pair.sharer.headers, `?partnerId=${other.advertiser.organizationId}`)).toEqual({
      sent: [],
      received: [],
    });
    // The other pair counts its own three, and none of the first pair's.
    expect(await revenueOf(other.advertiser.headers)).toEqual({
      sent: [],
      received: [{ currency: "USD", value: 90, sales: 3 }],
    });
    expect(await revenueOf(other.sharer.headers)).toEqual({
      sent: [{ currency: "USD", value: 90, sales: 3 }],
      received: [],
    });
  });

  it("answers 401 without a session and 400 for a bad partner id", async () => {
    expect((await t.app.inject({ url: "/api/metrics/revenue" })).statusCode).toBe(401);
    const bad = await t.app.inject({
      url: `/api/metrics/revenue?partnerId=${"x".repeat(101)}`,
      headers: pair.sharer.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(["message"]);
  });
});
