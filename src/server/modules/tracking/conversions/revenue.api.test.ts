import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversions, customerBindings } from "../../../db/schema";
import { createOrganization, createTestApp, type TestApp } from "../../../testing/app";
import { clickThrough, createSharedAds } from "../../../testing/buddies";
import { PIXEL_LEADS_ONLY_MESSAGE } from "./pixel";

/** CONTRACT §8 through the API: money, customers, event ids and the revenue read. */
let t: TestApp;
let sharer: Awaited<ReturnType<typeof createOrganization>>;
let advertiser: Awaited<ReturnType<typeof createOrganization>>;
let outsider: Awaited<ReturnType<typeof createOrganization>>;
let trackedUrl: string;
let advertiserKey: string;
let sharerKey: string;
let outsiderKey: string;
let visitor = 0;

async function keyFor(org: typeof sharer) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/api-keys",
    headers: org.headers,
    payload: { name: "revenue" },
  });
  return response.json().key as string;
}

beforeAll(async () => {
  t = await createTestApp();
  const shared = await createSharedAds(
    t,
    ["revsharer", "revadvertiser"],
    [{ name: "Try it", description: "The best tool.", ctaText: "Start" }],
  );
  ({ sharer, advertiser } = shared);
  trackedUrl = shared.trackedUrls[0] as string;
  outsider = await createOrganization(t, "revoutsider");
  [advertiserKey, sharerKey, outsiderKey] = await Promise.all([
    keyFor(advertiser),
    keyFor(sharer),
    keyFor(outsider),
  ]);
});
afterAll(() => t.close());

/** A visitor from the sharer's mail clicks through to the advertiser: its click id. */
async function click(): Promise<string> {
  visitor++;
  return clickThrough(t, trackedUrl, `198.51.100.${visitor}`);
}

const convert = (key: string, payload: object) =>
  t.app.inject({ method: "POST", url: "/api/marketing/conversion", headers: { "x-api-key": key }, payload });
const revenueOf = (headers: Record<string, string>, query = "") =>
  t.app.inject({ url: `/api/metrics/revenue${query}`, headers }).then((r) => r.json());
const leadsOf = (headers: Record<string, string>) =>
  t.app.inject({ url: "/api/metrics/leads", headers }).then((r) => r.json());

describe("money", () => {
  it.each([
    [{ value: 49.99 }, 4999, "USD"],
    [{ value: 49.99, currency: "EUR" }, 4999, "EUR"],
    [{ value: 49.9, currency: "usd" }, 4990, "USD"],
    [{ value: 5000, currency: "JPY" }, 5000, "JPY"],
    [{ value: 1.234, currency: "BHD" }, 1234, "BHD"],
    [{ value: 0 }, 0, "USD"],
  ])("stores %o as integer minor units", async (money, minor, currency) => {
    const response = await convert(advertiserKey, { clickId: await click(), type: "purchase", ...money });
    expect(response.statusCode).toBe(201);
    const [row] = await t.database.db
      .select()
      .from(conversions)
      .where(eq(conversions.id, response.json().id));
    expect(row).toMatchObject({ valueMinor: minor, currency });
  });

  it.each([
    [{ value: 49.999 }, "value must have at most 2 decimals for USD"],
    [{ value: 0.1 + 0.2 }, "value must have at most 2 decimals for USD"],
    [{ value: 10.5, currency: "JPY" }, "value must be a whole number for JPY"],
    [{ value: -1 }, "value must not be negative"],
    [{ value: 10, currency: "XYZ" }, "currency must be an ISO 4217 code such as USD, EUR or JPY"],
    [{ value: 10, currency: "dollars" }, "currency must be an ISO 4217 code such as USD, EUR or JPY"],
    [{ currency: "ZZZ" }, "currency must be an ISO 4217 code such as USD, EUR or JPY"],
    [{ value: "10" }, "value must be a number"],
    [{ value: 1e300 }, "value is too large"],
  ])("refuses %o with 400 and the rule's message, recording nothing", async (money, message) => {
    const before = await t.database.db.select().from(conversions);
    const response = await convert(advertiserKey, { clickId: await click(), type: "purchase", ...money });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message });
    expect(await t.database.db.select().from(conversions)).toHaveLength(before.length);
  });

  it("needs a click id or a customer id", async () => {
    const response = await convert(advertiserKey, { type: "signup" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: "clickId or customerId is required" });
  });
});

describe("the keyless pixel records leads only (CONTRACT §5)", () => {
  const pixel = (clickId: string, query: string) =>
    t.app.inject({
      url: `/api/marketing/conversion/${clickId}?type=purchase&org=${advertiser.organizationId}${query}`,
    });
  const bindingsOf = (organizationId: string) =>
    t.database.db.select().from(customerBindings).where(eq(customerBindings.organizationId, organizationId));

  it("refuses money, event ids and customer ids with 400, recording nothing; the key's calls then take them", async () => {
    // The sharer's reader clicked through: anyone who saw the page's URL knows this click id.
    const forgedClick = await click();
    const before = {
      advertiser: await revenueOf(advertiser.headers),
      sharer: await revenueOf(sharer.headers),
      leads: await leadsOf(advertiser.headers),
      bindings: (await bindingsOf(advertiser.organizationId)).length,
    };
    for (const query of [
      "&value=999999999.99",
      "&currency=USD",
      "&eventId=order-1001",
      "&customerId=crm-77",
      "&value=",
      "&eventId",
      "&customerId=crm-77&value=1&currency=EUR&eventId=order-1001",
      // Refused before the type is read: the message that helps.
      "&value=49.99&type=renewal",
    ]) {
      const response = await pixel(forgedClick, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.headers["content-type"], query).toContain("application/json");
      expect(response.json(), query).toEqual({ message: PIXEL_LEADS_ONLY_MESSAGE });
      expect(PIXEL_LEADS_ONLY_MESSAGE).toContain("POST /api/marketing/conversion");
    }
    expect(await revenueOf(advertiser.headers)).toEqual(before.advertiser);
    expect(await revenueOf(sharer.headers)).toEqual(before.sharer);
    expect(await leadsOf(advertiser.headers)).toEqual(before.leads);
    expect(
      await t.database.db.select().from(conversions).where(eq(conversions.clickId, forgedClick)),
    ).toEqual([]);
    expect(
      await t.database.db.select().from(conversions).where(eq(conversions.eventId, "order-1001")),
    ).toEqual([]);
    expect(await bindingsOf(advertiser.organizationId)).toHaveLength(before.bindings);

    // The advertiser's own order id is still its own: recorded, not a duplicate of the forgery.
    const order = await convert(advertiserKey, {
      clickId: await click(),
      type: "purchase",
      value: 49.99,
      eventId: "order-1001",
    });
    expect(order.statusCode).toBe(201);
    expect(order.json()).toMatchObject({ duplicate: false });
    // Its CRM customer was never bound to the forged click: unknown until the key binds it.
    const unbound = await convert(advertiserKey, { customerId: "crm-77", type: "trial" });
    expect(unbound.statusCode).toBe(404);
    const realClick = await click();
    expect(
      (await convert(advertiserKey, { clickId: realClick, customerId: "crm-77", type: "signup" })).statusCode,
    ).toBe(201);
    const later = await convert(advertiserKey, { customerId: "crm-77", type: "trial" });
    expect(later.statusCode).toBe(201);
    const rows = await t.database.db.select().from(conversions).where(eq(conversions.customerId, "crm-77"));
    expect(rows.map((row) => row.clickId)).toEqual([realClick, realClick]);

    // A HEAD, as link checkers send, records nothing.
    const head = await t.app.inject({
      method: "HEAD",
      url: `/api/marketing/conversion/${encodeURIComponent(forgedClick)}?type=purchase&org=${advertiser.organizationId}`,
    });
    expect(head.statusCode).toBe(404);
    expect(
      await t.database.db.select().from(conversions).where(eq(conversions.clickId, forgedClick)),
    ).toEqual([]);

    // A lead alone it still records, with no money.
    const lead = await pixel(forgedClick, "");
    expect(lead.statusCode).toBe(200);
    expect(lead.headers["content-type"]).toBe("image/gif");
    const [stored] = await t.database.db
      .select()
      .from(conversions)
      .where(eq(conversions.clickId, forgedClick));
    expect(stored).toMatchObject({
      type: "purchase",
      valueMinor: null,
      currency: null,
      customerId: null,
      eventId: null,
    });

    // That lead came first, so the key's purchase of the same click and type without an event id
    // repeats it (CONTRACT §8). Its customer is still bound to the click: the pixel's lead never
    // keeps the advertiser's customer from the partner who sent them.
    const repeat = await convert(advertiserKey, {
      clickId: forgedClick,
      type: "purchase",
      value: 499.99,
      customerId: "cus-after-pixel",
    });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toMatchObject({ duplicate: true });
    const renewal = await convert(advertiserKey, {
      customerId: "cus-after-pixel",
      type: "upgrade",
      value: 10,
    });
    expect(renewal.statusCode).toBe(201);
    const [upgrade] = await t.database.db
      .select()
      .from(conversions)
      .where(eq(conversions.customerId, "cus-after-pixel"));
    expect(upgrade).toMatchObject({ clickId: forgedClick, type: "upgrade", valueMinor: 1000 });
  });
});

describe("customers, event ids and revenue", () => {
  it("follows a customer over three events to the partner who sent them, both ways", async () => {
    const before = {
      sharer: await revenueOf(sharer.headers),
      advertiser: await revenueOf(advertiser.headers),
      sharerLeads: await leadsOf(sharer.headers),
    };
    const clickId = await click();
    const signup = await convert(advertiserKey, { clickId, customerId: "cus_journey", type: "signup" });
    expect(signup.statusCode).toBe(201);
    // Weeks later, on another device: only the customer id.
    const trial = await convert(advertiserKey, { customerId: "cus_journey", type: "trial" });
    const purchase = await convert(advertiserKey, {
      customerId: "cus_journey",
      type: "purchase",
      value: 99.5,
      currency: "EUR",
      eventId: "in_journey_1",
    });
    expect([trial.statusCode, purchase.statusCode]).toEqual([201, 201]);
    const rows = await t.database.db
      .select()
      .from(conversions)
      .where(eq(conversions.customerId, "cus_journey"));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({
        clickId,
        sourceOrgId: sharer.organizationId,
        targetOrgId: advertiser.organizationId,
      });
    }
    const euros = (revenue: { sent: { currency: string; value: number }[] }, side: "sent" | "received") =>
      (revenue as Record<typeof side, { currency: string; value: number }[]>)[side].find(
        (m) => m.currency === "EUR",
      )?.value ?? 0;
    expect(euros(await revenueOf(sharer.headers), "sent") - euros(before.sharer, "sent")).toBeCloseTo(
      99.5,
      9,
    );
    expect(
      euros(await revenueOf(advertiser.headers), "received") - euros(before.advertiser, "received"),
    ).toBeCloseTo(99.5, 9);
    expect((await leadsOf(sharer.headers)).sent - before.sharerLeads.sent).toBe(3);
  });

  it("answers 404 for a customer never bound, and never lets another organization's key reach a binding", async () => {
    const clickId = await click();
    expect(
      (await convert(advertiserKey, { clickId, customerId: "cus_private", type: "signup" })).statusCode,
    ).toBe(201);
    for (const key of [outsiderKey, sharerKey]) {
      const response = await convert(key, { customerId: "cus_private", type: "purchase", value: 10 });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: expect.stringContaining("Customer not found") });
      // Nor the click itself.
      expect((await convert(key, { clickId, type: "purchase" })).statusCode).toBe(404);
    }
    expect((await convert(advertiserKey, { customerId: "cus_nobody", type: "trial" })).statusCode).toBe(404);
  });

  it("answers a repeated event id with the first conversion, once, even when both arrive at once", async () => {
    const clickId = await click();
    const payload = { clickId, type: "purchase", value: 20, eventId: "evt_concurrent" };
    const [x, y] = await Promise.all([convert(advertiserKey, payload), convert(advertiserKey, payload)]);
    expect([x?.statusCode, y?.statusCode].sort()).toEqual([200, 201]);
    expect(x?.json().id).toBe(y?.json().id);
    expect(
      await t.database.db.select().from(conversions).where(eq(conversions.eventId, "evt_concurrent")),
    ).toHaveLength(1);
    const later = await convert(advertiserKey, { ...payload, value: 999 });
    expect(later.statusCode).toBe(200);
    expect(later.json()).toEqual({ id: x?.json().id, duplicate: true });
    // Another organization's event ids are its own.
    const outsiderClick = await convert(outsiderKey, {
      clickId,
      type: "purchase",
      eventId: "evt_concurrent",
    });
    expect(outsiderClick.statusCode).toBe(404);
  });

  it("answers a lead and an event sent to two instances at once with one conversion each, named in every answer", async () => {
    // Two transactions: each statement's snapshot misses the row the other commits meanwhile.
    const other = await createTestApp({ database: t.database, mail: t.mail });
    try {
      const send = (app: TestApp, payload: object) =>
        app.app.inject({
          method: "POST",
          url: "/api/marketing/conversion",
          headers: { "x-api-key": advertiserKey },
          payload,
        });
      for (let round = 0; round < 5; round++) {
        const clickId = await click();
        for (const payload of [
          { clickId, type: "signup" },
          { clickId, type: "purchase", value: 5, eventId: `evt_instances_${round}` },
        ]) {
          const answers = await Promise.all([t, other, t, other].map((app) => send(app, payload)));
          expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 201]);
          const ids = new Set(answers.map((answer) => answer.json().id));
          expect(ids.size).toBe(1);
          const stored = await t.database.db
            .select()
            .from(conversions)
            .where(eq(conversions.clickId, clickId));
          expect(stored.filter((row) => row.type === payload.type).map((row) => row.id)).toEqual([...ids]);
        }
      }
    } finally {
      await other.close();
    }
  });

  it("sums renewals with distinct event ids while the lead counts once", async () => {
    const before = {
      revenue: await revenueOf(advertiser.headers, `?partnerId=${sharer.organizationId}`),
      leads: await leadsOf(advertiser.headers),
    };
    const clickId = await click();
    for (const eventId of ["in_renew_1", "in_renew_2", "in_renew_3"]) {
      const response = await convert(advertiserKey, {
        clickId,
        type: "purchase",
        value: 10,
        currency: "GBP",
        eventId,
      });
      expect(response.statusCode).toBe(201);
    }
    const after = await revenueOf(advertiser.headers, `?partnerId=${sharer.organizationId}`);
    const pounds = (revenue: typeof after) =>
      revenue.received.find((m: { currency: string }) => m.currency === "GBP")?.value ?? 0;
    expect(pounds(after) - pounds(before.revenue)).toBe(30);
    expect((await leadsOf(advertiser.headers)).received - before.leads.received).toBe(1);
    // The pair's figures, one partner at a time; none with an organization that is no partner.
    expect(await revenueOf(advertiser.headers, `?partnerId=${outsider.organizationId}`)).toEqual({
      sent: [],
      received: [],
    });
  });

  it("keeps each organization's revenue its own, and lists currencies in order", async () => {
    expect(await revenueOf(outsider.headers)).toEqual({ sent: [], received: [] });
    const revenue = await revenueOf(sharer.headers);
    const currencies = revenue.sent.map((m: { currency: string }) => m.currency);
    expect(currencies).toEqual([...currencies].sort());
    expect(revenue.received).toEqual([]);
    expect((await t.app.inject({ url: "/api/metrics/revenue" })).statusCode).toBe(401);
  });

  it("gives the chart revenue per day and currency", async () => {
    const response = await t.app.inject({ url: "/api/metrics/revenue/daily", headers: sharer.headers });
    expect(response.statusCode).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const eur = response
      .json()
      .find((row: { day: string; currency: string }) => row.day === today && row.currency === "EUR");
    expect(eur?.sent).toBeGreaterThan(0);
    expect(eur?.received).toBe(0);
  });
});
