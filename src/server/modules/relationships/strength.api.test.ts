import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/app";
import { clickThrough, createSharedAds } from "../../testing/buddies";

/**
 * Partnership strength moves with what a pair did together (issue 37; docs/decisions.md,
 * "Partnership strength"): clicks both ways, leads and sales, on a Buddy's page and in the list,
 * and never with another organization's traffic.
 */
let t: TestApp;
type Pair = Awaited<ReturnType<typeof createSharedAds>>;
let pair: Pair;
let other: Pair;
/** The advertiser's tracked link to the sharer's ad: the clicks the other way. */
let backUrl: string;
let visitor = 0;

const AD = [{ name: "Try it", description: "The best tool.", ctaText: "Start" }];

async function ok(method: "GET" | "POST", url: string, headers: Record<string, string>, payload?: object) {
  const response = await t.app.inject({ method, url, headers, payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json();
}

const clicks = async (url: string, count: number) => {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    visitor++;
    ids.push(await clickThrough(t, url, `198.18.${visitor}.9`));
  }
  return ids;
};

const strengthOf = async (of: Pair) =>
  (await ok("GET", `/api/relationships/${of.relationshipId}`, of.sharer.headers)).strengthScore as number;
const listedStrengthOf = async (of: Pair) =>
  (
    (await ok("GET", "/api/relationships", of.sharer.headers)) as { id: string; strengthScore: number }[]
  ).find((relationship) => relationship.id === of.relationshipId)?.strengthScore;

beforeAll(async () => {
  t = await createTestApp();
  pair = await createSharedAds(t, ["strengthsharer", "strengthadvertiser"], AD);
  other = await createSharedAds(t, ["strengthothersharer", "strengthotheradvertiser"], AD);
  // The advertiser holds the sharer as a Buddy too and shares its ad: traffic both ways.
  await ok("POST", "/api/relationships", pair.advertiser.headers, {
    organizationId: pair.sharer.organizationId,
    type: "complement",
  });
  await ok("POST", "/api/marketing/collateral", pair.sharer.headers, {
    ...AD[0],
    ctaUrl: `https://${pair.sharer.domain}/go`,
    status: "active",
  });
  const ads = await ok(
    "GET",
    `/api/marketing/collateral?organizationId=${pair.sharer.organizationId}`,
    pair.advertiser.headers,
  );
  backUrl = ads[0].trackedUrl;
});
afterAll(() => t.close());

describe("partnership strength", () => {
  it("moves with clicks both ways, leads and sales, on the Buddy's page and in the list alike", async () => {
    const before = await strengthOf(pair);
    expect(await listedStrengthOf(pair)).toBe(before);
    const untouched = await strengthOf(other);

    // The sharer's readers click the advertiser's ad 12 times; 3 of them buy, one refunded in full.
    const sent = await clicks(pair.trackedUrls[0] as string, 12);
    const key = (await ok("POST", "/api/api-keys", pair.advertiser.headers, { name: "shop" })).key as string;
    const sales: string[] = [];
    for (const clickId of sent.slice(0, 3)) {
      const sale = await ok(
        "POST",
        "/api/marketing/conversion",
        { "x-api-key": key },
        {
          clickId,
          type: "purchase",
          value: 1234,
          currency: "USD",
        },
      );
      sales.push(sale.id);
    }
    await ok(
      "POST",
      "/api/marketing/refunds",
      { "x-api-key": key },
      {
        conversionId: sales[0],
        refundId: "re_strength_1",
      },
    );
    const oneWay = await strengthOf(pair);
    expect(oneWay).toBeGreaterThan(before);

    // The advertiser's readers click back as often: give and take.
    await clicks(backUrl, 12);
    const bothWays = await strengthOf(pair);
    expect(bothWays).toBeGreaterThan(oneWay);
    expect(bothWays - before).toBeGreaterThanOrEqual(3);
    expect(await listedStrengthOf(pair)).toBe(bothWays);
    // The advertiser sees the same pair from its side.
    const mirror = (
      (await ok("GET", "/api/relationships", pair.advertiser.headers)) as {
        targetOrg: { id: string };
        strengthScore: number;
      }[]
    ).find((relationship) => relationship.targetOrg.id === pair.sharer.organizationId);
    expect(mirror?.strengthScore).toBe(bothWays);

    // Another pair's strength never moves with this pair's traffic.
    expect(await strengthOf(other)).toBe(untouched);
    expect(await listedStrengthOf(other)).toBe(untouched);
  });

  it("answers 404 for another organization's relationship", async () => {
    const response = await t.app.inject({
      url: `/api/relationships/${pair.relationshipId}`,
      headers: other.sharer.headers,
    });
    expect(response.statusCode).toBe(404);
  });
});
