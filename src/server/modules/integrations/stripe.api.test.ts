import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversions, customerBindings, stripeConnections } from "../../db/schema";
import {
  addMember,
  createApiKey,
  createOrganization,
  createTestApp,
  TEST_PUBLIC_URL,
  type TestApp,
} from "../../testing/app";
import { clickThrough, createSharedAds } from "../../testing/buddies";

/** CONTRACT §8's Stripe without code: events signed with the stripe package's test helper. */
let t: TestApp;
let sharer: Awaited<ReturnType<typeof createOrganization>>;
let advertiser: Awaited<ReturnType<typeof createOrganization>>;
let outsider: Awaited<ReturnType<typeof createOrganization>>;
let trackedUrl: string;
let visitor = 0;
/** The app's log from warn up, as JSON lines. */
const log: { level: number; msg?: string; reason?: string }[] = [];
const SECRET = "whsec_advertiserSigningSecret0123456789";
const OUTSIDER_SECRET = "whsec_outsiderSigningSecret0123456789";

beforeAll(async () => {
  t = await createTestApp({
    logger: { level: "warn", stream: { write: (line: string) => log.push(JSON.parse(line)) } },
  });
  const shared = await createSharedAds(
    t,
    ["stripesharer", "stripeadvertiser"],
    [{ name: "Try it", description: "The best tool.", ctaText: "Start" }],
  );
  ({ sharer, advertiser } = shared);
  trackedUrl = shared.trackedUrls[0] as string;
  outsider = await createOrganization(t, "stripeoutsider");
});
afterAll(() => t.close());

async function click(): Promise<string> {
  visitor++;
  return clickThrough(t, trackedUrl, `203.0.113.${visitor}`);
}

const connection = (
  headers: Record<string, string>,
  method: "GET" | "PUT" | "DELETE" = "GET",
  payload?: object,
) => t.app.inject({ method, url: "/api/integrations/stripe", headers, payload });

let eventCounter = 0;
function stripeEvent(type: string, object: Record<string, unknown>, id = `evt_test_${++eventCounter}`) {
  return { id, object: "event", type, created: Math.floor(Date.now() / 1000), data: { object } };
}

/** Sends an event as Stripe would: the exact bytes, signed with `secret` at `timestamp`. */
function deliver(
  organizationId: string,
  event: object | null | string,
  options: { secret?: string; timestamp?: number; signature?: string } = {},
) {
  // A string is sent as it is: bytes Stripe signed that need not be JSON.
  const payload = typeof event === "string" ? event : JSON.stringify(event);
  const signature =
    options.signature ??
    Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? SECRET,
      timestamp: options.timestamp,
    });
  return t.app.inject({
    method: "POST",
    url: `/api/integrations/stripe/webhook/${organizationId}`,
    headers: { "content-type": "application/json", "stripe-signature": signature },
    payload,
  });
}

const purchasesOf = (organizationId: string) =>
  t.database.db.select().from(conversions).where(eq(conversions.targetOrgId, organizationId));

describe("connecting Stripe", () => {
  it("shows members the webhook URL, lets only admins connect, and never shows the secret again", async () => {
    const member = await addMember(t, advertiser.organizationId);
    const webhookUrl = `${TEST_PUBLIC_URL}/api/integrations/stripe/webhook/${advertiser.organizationId}`;
    expect((await connection(member.headers)).json()).toEqual({
      connected: false,
      webhookUrl,
      lastEventAt: null,
    });
    expect((await connection(member.headers, "PUT", { webhookSecret: SECRET })).statusCode).toBe(403);
    for (const webhookSecret of ["sk_live_123", "whsec_", "", 42]) {
      const refused = await connection(advertiser.headers, "PUT", { webhookSecret });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        message: "Paste the webhook signing secret from Stripe: it starts with whsec_",
      });
    }
    const connected = await connection(advertiser.headers, "PUT", { webhookSecret: SECRET });
    expect(connected.statusCode).toBe(200);
    expect(connected.json()).toEqual({ connected: true, webhookUrl, lastEventAt: null });
    expect(connected.body).not.toContain(SECRET);
    expect((await connection(member.headers)).json()).toEqual({
      connected: true,
      webhookUrl,
      lastEventAt: null,
    });
    const [stored] = await t.database.db
      .select()
      .from(stripeConnections)
      .where(eq(stripeConnections.organizationId, advertiser.organizationId));
    expect(stored?.webhookSecretSealed).not.toContain("advertiserSigningSecret");
    // Each organization sees its own connection only.
    expect((await connection(outsider.headers)).json().connected).toBe(false);
    expect((await connection(member.headers, "DELETE")).statusCode).toBe(403);
    expect((await connection({})).statusCode).toBe(401);
  });

  it("disconnects: the webhook then refuses events", async () => {
    expect((await connection(outsider.headers, "PUT", { webhookSecret: OUTSIDER_SECRET })).statusCode).toBe(
      200,
    );
    expect((await connection(outsider.headers, "DELETE")).statusCode).toBe(204);
    const response = await deliver(outsider.organizationId, stripeEvent("invoice.paid", {}), {
      secret: OUTSIDER_SECRET,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: "Stripe is not connected for this organization" });
  });
});

describe("the Stripe webhook", () => {
  it("records a completed Checkout of a click as a purchase, once however often Stripe delivers it", async () => {
    const clickId = await click();
    const event = stripeEvent("checkout.session.completed", {
      id: "cs_test_1",
      object: "checkout.session",
      client_reference_id: clickId,
      amount_total: 4999,
      currency: "usd",
      customer: "cus_stripe_1",
    });
    expect((await deliver(advertiser.organizationId, event)).json()).toEqual({ received: true });
    expect((await deliver(advertiser.organizationId, event)).statusCode).toBe(200);
    const rows = (await purchasesOf(advertiser.organizationId)).filter((row) => row.clickId === clickId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: "purchase",
      valueMinor: 4999,
      currency: "USD",
      eventId: event.id,
      customerId: "cus_stripe_1",
      sourceOrgId: sharer.organizationId,
    });
    const [binding] = await t.database.db
      .select()
      .from(customerBindings)
      .where(eq(customerBindings.customerId, "cus_stripe_1"));
    expect(binding?.clickId).toBe(clickId);
    const revenue = await t.app.inject({ url: "/api/metrics/revenue", headers: sharer.headers });
    expect(revenue.json().sent).toEqual([{ currency: "USD", value: 49.99, sales: 1 }]);
  });

  it("records renewals of the bound customer and skips the subscription's first invoice", async () => {
    const invoice = (id: string, reason: string, customer = "cus_stripe_1") =>
      stripeEvent("invoice.paid", {
        id,
        object: "invoice",
        customer,
        amount_paid: 4999,
        currency: "usd",
        billing_reason: reason,
      });
    const before = (await purchasesOf(advertiser.organizationId)).length;
    for (const event of [
      invoice("in_first", "subscription_create"),
      invoice("in_renewal_1", "subscription_cycle"),
      invoice("in_renewal_1", "subscription_cycle"),
      invoice("in_unknown_customer", "subscription_cycle", "cus_never_bound"),
      stripeEvent("customer.created", { id: "cus_x", object: "customer" }),
    ]) {
      expect((await deliver(advertiser.organizationId, event)).statusCode).toBe(200);
    }
    const rows = await purchasesOf(advertiser.organizationId);
    expect(rows.length - before).toBe(1);
    expect(rows.find((row) => row.eventId === "in_renewal_1")).toMatchObject({
      valueMinor: 4999,
      isLead: false,
    });
  });

  it("answers 200 and records nothing for a Checkout of an unknown or another organization's click", async () => {
    const before = (await purchasesOf(advertiser.organizationId)).length;
    for (const clickId of ["not-a-click-id", null]) {
      const event = stripeEvent("checkout.session.completed", {
        id: "cs_test_unknown",
        client_reference_id: clickId,
        amount_total: 100,
        currency: "usd",
        customer: null,
      });
      expect((await deliver(advertiser.organizationId, event)).statusCode).toBe(200);
    }
    expect(await purchasesOf(advertiser.organizationId)).toHaveLength(before);
  });

  it("refuses a bad or missing signature, a stale one, and another organization's secret, recording nothing", async () => {
    await connection(outsider.headers, "PUT", { webhookSecret: OUTSIDER_SECRET });
    const before = (await purchasesOf(advertiser.organizationId)).length;
    const event = stripeEvent("checkout.session.completed", {
      id: "cs_forged",
      client_reference_id: await click(),
      amount_total: 100000,
      currency: "usd",
    });
    const sixMinutesAgo = Math.floor(Date.now() / 1000) - 360;
    for (const response of [
      await deliver(advertiser.organizationId, event, { signature: "t=1,v1=deadbeef" }),
      await deliver(advertiser.organizationId, event, { timestamp: sixMinutesAgo }),
      await deliver(advertiser.organizationId, event, { secret: OUTSIDER_SECRET }),
      await t.app.inject({
        method: "POST",
        url: `/api/integrations/stripe/webhook/${advertiser.organizationId}`,
        headers: { "content-type": "application/json" },
        payload: JSON.stringify(event),
      }),
    ]) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: "Invalid Stripe signature" });
    }
    expect(await purchasesOf(advertiser.organizationId)).toHaveLength(before);
    const unknown = await deliver("no-such-organization", event);
    expect(unknown.statusCode).toBe(400);
  });
});

describe("a signed event Buddy cannot read (CONTRACT §8)", () => {
  const unreadable = async () => {
    const metric = t.app.metrics.registry.getSingleMetric("buddy_stripe_events_unreadable_total");
    const values = (await metric?.get())?.values ?? [];
    return (reason: string) =>
      values.find((value) => value.labels.webhook === "integration" && value.labels.reason === reason)
        ?.value ?? 0;
  };
  const warnings = () => log.filter((entry) => entry.level === 40 && entry.msg?.includes("cannot read"));

  it("answers 200 {received:true}, records nothing, warns once and counts it, whatever the shape", async () => {
    const clickId = await click();
    const checkout = (object: Record<string, unknown>) =>
      stripeEvent("checkout.session.completed", {
        id: "cs_unreadable",
        client_reference_id: clickId,
        amount_total: 4999,
        currency: "usd",
        customer: "cus_unreadable",
        ...object,
      });
    // A bound customer, so that a readable invoice would record a purchase.
    const bound = stripeEvent("checkout.session.completed", {
      id: "cs_bound",
      client_reference_id: await click(),
      amount_total: 100,
      currency: "usd",
      customer: "cus_unreadable_bound",
    });
    expect((await deliver(advertiser.organizationId, bound)).statusCode).toBe(200);
    const paid = (object: Record<string, unknown>) =>
      stripeEvent("invoice.paid", {
        id: `in_unreadable_${++eventCounter}`,
        customer: "cus_unreadable_bound",
        amount_paid: 4999,
        billing_reason: "subscription_cycle",
        ...object,
      });
    const { data: _data, ...noData } = checkout({});
    const cases: [string, object | null | string, string][] = [
      ["no data", noData, "checkout_session"],
      ["data: {}", { ...checkout({}), data: {} }, "checkout_session"],
      ["data: null", { ...checkout({}), data: null }, "checkout_session"],
      ["the body null", null, "not_an_event"],
      ["a body that is no JSON", "{not json", "not_json"],
      ["an event without an id", { type: "invoice.paid", data: { object: {} } }, "not_an_event"],
      ["a currency that is a number", checkout({ currency: 840 }), "checkout_session"],
      ["a currency that is an object", checkout({ currency: { code: "usd" } }), "checkout_session"],
      ["a currency that is none", checkout({ currency: "zzz" }), "checkout_session"],
      ["an amount that is text", checkout({ amount_total: "4999" }), "checkout_session"],
      ["invoice.paid without currency", paid({}), "invoice"],
      ["invoice.paid with a currency that is a number", paid({ currency: 978 }), "invoice"],
      ["invoice.paid with a negative amount", paid({ currency: "usd", amount_paid: -5 }), "invoice"],
    ];
    for (const [name, event, reason] of cases) {
      const before = {
        rows: (await purchasesOf(advertiser.organizationId)).length,
        bindings: (await t.database.db.select().from(customerBindings)).length,
        counted: (await unreadable())(reason),
        warnings: warnings().length,
      };
      const response = await deliver(advertiser.organizationId, event);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(200);
      expect(response.json(), name).toEqual({ received: true });
      expect((await purchasesOf(advertiser.organizationId)).length, name).toBe(before.rows);
      expect((await t.database.db.select().from(customerBindings)).length, name).toBe(before.bindings);
      expect((await unreadable())(reason), name).toBe(before.counted + 1);
      expect(warnings().slice(before.warnings), name).toEqual([
        expect.objectContaining({ level: 40, reason }),
      ]);
    }
    expect(log.filter((entry) => entry.level >= 50)).toEqual([]);
    // The same click and customer, readable, still record: nothing above took them.
    expect((await deliver(advertiser.organizationId, checkout({}))).statusCode).toBe(200);
    expect(
      (await purchasesOf(advertiser.organizationId)).filter((row) => row.clickId === clickId),
    ).toHaveLength(1);
  });
});

describe("the signature's time (CONTRACT §8: within 5 minutes of now, either side)", () => {
  const now = () => Math.floor(Date.now() / 1000);

  it("refuses a signature dated an hour ahead or an hour ago with 400, recording nothing", async () => {
    const before = (await purchasesOf(advertiser.organizationId)).length;
    for (const timestamp of [now() + 3600, now() - 3600, now() + 301 + 5]) {
      const event = stripeEvent("checkout.session.completed", {
        id: "cs_out_of_time",
        client_reference_id: await click(),
        amount_total: 100,
        currency: "usd",
      });
      const response = await deliver(advertiser.organizationId, event, { timestamp });
      expect(response.statusCode, String(timestamp - now())).toBe(400);
      expect(response.json()).toEqual({ message: "Invalid Stripe signature" });
    }
    expect(await purchasesOf(advertiser.organizationId)).toHaveLength(before);
  });

  it("accepts one dated four minutes ahead or ago: clocks differ", async () => {
    for (const timestamp of [now() + 240, now() - 240]) {
      const clickId = await click();
      const event = stripeEvent("checkout.session.completed", {
        id: "cs_in_time",
        client_reference_id: clickId,
        amount_total: 100,
        currency: "usd",
      });
      const response = await deliver(advertiser.organizationId, event, { timestamp });
      expect(response.statusCode, response.body).toBe(200);
      expect(
        (await purchasesOf(advertiser.organizationId)).filter((row) => row.clickId === clickId),
      ).toHaveLength(1);
    }
  });
});

describe("a customer both Stripe and the key bind (CONTRACT §8)", () => {
  const checkout = (clickId: string, customer: string) =>
    stripeEvent("checkout.session.completed", {
      id: `cs_${customer}`,
      client_reference_id: clickId,
      amount_total: 2500,
      currency: "usd",
      customer,
    });
  const invoice = (customer: string) =>
    stripeEvent("invoice.paid", {
      id: `in_${customer}_${++eventCounter}`,
      customer,
      amount_paid: 2500,
      currency: "usd",
      billing_reason: "subscription_cycle",
    });
  const convert = (key: string, payload: object) =>
    t.app.inject({
      method: "POST",
      url: "/api/marketing/conversion",
      headers: { "x-api-key": key },
      payload,
    });
  const invoiceClick = async (customer: string) => {
    const event = invoice(customer);
    expect((await deliver(advertiser.organizationId, event)).statusCode).toBe(200);
    const rows = await t.database.db
      .select()
      .from(conversions)
      .where(eq(conversions.eventId, event.data.object.id as string));
    return rows[0]?.clickId;
  };

  it("lets the key's binding replace Stripe's, and never Stripe's the key's", async () => {
    const { key } = await createApiKey(t, advertiser);
    const [stripeClick, keyedClick] = [await click(), await click()];
    expect((await deliver(advertiser.organizationId, checkout(stripeClick, "cus_api_both"))).statusCode).toBe(
      200,
    );
    expect(await invoiceClick("cus_api_both")).toBe(stripeClick);
    const signup = await convert(key, { clickId: keyedClick, customerId: "cus_api_both", type: "signup" });
    expect(signup.statusCode).toBe(201);
    expect(await invoiceClick("cus_api_both")).toBe(keyedClick);

    const [firstKeyed, laterStripe] = [await click(), await click()];
    expect(
      (await convert(key, { clickId: firstKeyed, customerId: "cus_api_key", type: "signup" })).statusCode,
    ).toBe(201);
    expect((await deliver(advertiser.organizationId, checkout(laterStripe, "cus_api_key"))).statusCode).toBe(
      200,
    );
    expect(await invoiceClick("cus_api_key")).toBe(firstKeyed);
    // The key's calls naming only the customer follow the same binding.
    const trial = await convert(key, { customerId: "cus_api_key", type: "trial" });
    const [row] = await t.database.db.select().from(conversions).where(eq(conversions.id, trial.json().id));
    expect(row?.clickId).toBe(firstKeyed);
  });
});

describe("the time of the last signed event (the card's 'Last event received')", () => {
  const LAST_SECRET = "whsec_lastEventSigningSecret0123456789";
  const OTHER_SECRET = "whsec_lastEventOtherSecret0123456789";
  let receiver: Awaited<ReturnType<typeof createOrganization>>;
  let other: Awaited<ReturnType<typeof createOrganization>>;
  const lastEventAt = async (headers: Record<string, string>) =>
    (await connection(headers)).json().lastEventAt as string | null;
  const setLastEventAt = (organizationId: string, at: Date | null) =>
    t.database.db
      .update(stripeConnections)
      .set({ lastEventAt: at })
      .where(eq(stripeConnections.organizationId, organizationId));

  beforeAll(async () => {
    receiver = await createOrganization(t, "stripelastevent");
    other = await createOrganization(t, "stripelastother");
    for (const [org, webhookSecret] of [
      [receiver, LAST_SECRET],
      [other, OTHER_SECRET],
    ] as const) {
      expect((await connection(org.headers, "PUT", { webhookSecret })).statusCode).toBe(200);
    }
  });

  it("stays null for unsigned, forged and another organization's events, and for an unconnected one", async () => {
    const event = stripeEvent("customer.created", { id: "cus_nobody", object: "customer" });
    for (const response of [
      await deliver(receiver.organizationId, event, { signature: "t=1,v1=deadbeef" }),
      await deliver(receiver.organizationId, event, { secret: OTHER_SECRET }),
      await t.app.inject({
        method: "POST",
        url: `/api/integrations/stripe/webhook/${receiver.organizationId}`,
        headers: { "content-type": "application/json" },
        payload: JSON.stringify(event),
      }),
    ]) {
      expect(response.statusCode).toBe(400);
    }
    expect(await lastEventAt(receiver.headers)).toBeNull();
    expect(await lastEventAt(other.headers)).toBeNull();
    const unconnected = await createOrganization(t, "stripelastnone");
    expect((await connection(unconnected.headers)).json()).toMatchObject({
      connected: false,
      lastEventAt: null,
    });
  });

  it("is set by any validly signed event, even one that records nothing, for that organization alone", async () => {
    const before = Date.now();
    const event = stripeEvent("customer.created", { id: "cus_signed", object: "customer" });
    expect((await deliver(receiver.organizationId, event, { secret: LAST_SECRET })).statusCode).toBe(200);
    const at = await lastEventAt(receiver.headers);
    expect(at).not.toBeNull();
    // The database's clock and this process's may differ by a little.
    expect(Math.abs(Date.parse(at as string) - before)).toBeLessThan(60_000);
    expect(await lastEventAt(other.headers)).toBeNull();
    // A member reads it too.
    const member = await addMember(t, receiver.organizationId);
    expect(await lastEventAt(member.headers)).toBe(at);
  });

  it("moves on with a later event, at most once a minute, and starts over with a new secret", async () => {
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await setLastEventAt(receiver.organizationId, twoMinutesAgo);
    const event = () => stripeEvent("customer.updated", { id: "cus_later", object: "customer" });
    expect((await deliver(receiver.organizationId, event(), { secret: LAST_SECRET })).statusCode).toBe(200);
    const moved = await lastEventAt(receiver.headers);
    expect(Date.parse(moved as string)).toBeGreaterThan(twoMinutesAgo.getTime() + 60_000);
    // Within the minute, another event leaves the row alone.
    const recent = new Date(Date.now() - 10_000);
    await setLastEventAt(receiver.organizationId, recent);
    expect((await deliver(receiver.organizationId, event(), { secret: LAST_SECRET })).statusCode).toBe(200);
    expect(await lastEventAt(receiver.headers)).toBe(recent.toISOString());
    // Replacing the secret: no event signed with the new one has arrived.
    const replaced = await connection(receiver.headers, "PUT", { webhookSecret: OTHER_SECRET });
    expect(replaced.json().lastEventAt).toBeNull();
  });
});
