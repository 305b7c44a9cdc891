import { REFUND_MESSAGES } from "@shared/refunds";
import { conversionRefundedMessageSchema } from "@shared/webhooks";
import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../../db/client";
import { conversions, refunds } from "../../../db/schema";
import { createApiKey, createOrganization, createTestApp, type TestApp } from "../../../testing/app";
import { clickThrough, createSharedAds } from "../../../testing/buddies";
import { startWebhookReceiver, type WebhookReceiver } from "../../../testing/webhook-receiver";
import { recordRefund } from "./refunds.service";

/**
 * CONTRACT §8 and §9: refunds and disputes, by key and from Stripe, through the API. Each scenario
 * uses a currency of its own, so the revenue figures it checks are its own.
 */
let t: TestApp;
let receiver: WebhookReceiver;
let sharer: Awaited<ReturnType<typeof createOrganization>>;
let advertiser: Awaited<ReturnType<typeof createOrganization>>;
let outsider: Awaited<ReturnType<typeof createOrganization>>;
let trackedUrl: string;
let collateralId: string;
let advertiserKey: string;
let sharerKey: string;
let outsiderKey: string;
const secrets: Record<string, string> = {};
let visitor = 0;
const STRIPE_SECRET = "whsec_refundsSigningSecret0123456789";

type Org = typeof sharer;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: "true" } });
  const shared = await createSharedAds(
    t,
    ["refundsharer", "refundadvertiser"],
    [{ name: "Try it", description: "The best tool.", ctaText: "Start" }],
  );
  ({ sharer, advertiser } = shared);
  trackedUrl = shared.trackedUrls[0] as string;
  collateralId = shared.adIds[0] as string;
  outsider = await createOrganization(t, "refundoutsider");
  const keys = await Promise.all([
    createApiKey(t, advertiser),
    createApiKey(t, sharer),
    createApiKey(t, outsider),
  ]);
  [advertiserKey, sharerKey, outsiderKey] = keys.map((created) => created.key) as [string, string, string];
  for (const [org, path] of [
    [advertiser, "/advertiser"],
    [sharer, "/sharer"],
  ] as const) {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/webhooks",
      headers: org.headers,
      payload: { url: receiver.url(path), events: ["conversion.refunded"] },
    });
    expect(response.statusCode, response.body).toBe(201);
    secrets[path] = response.json().secret;
  }
  const connected = await t.app.inject({
    method: "PUT",
    url: "/api/integrations/stripe",
    headers: advertiser.headers,
    payload: { webhookSecret: STRIPE_SECRET },
  });
  expect(connected.statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

async function click(): Promise<string> {
  visitor++;
  return clickThrough(t, trackedUrl, `198.51.100.${visitor}`);
}

async function convert(payload: object): Promise<string> {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/marketing/conversion",
    headers: { "x-api-key": advertiserKey },
    payload: { clickId: await click(), type: "purchase", ...payload },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

const refund = (payload: unknown, key = advertiserKey, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: "POST",
    url: "/api/marketing/refunds",
    headers: { "x-api-key": key, ...headers },
    payload: payload as object,
  });

/** The revenue in `currency` each side reads: metrics (sent, received) and its ledger row of the other. */
async function figures(currency: string) {
  const valueIn = (list: { currency: string; value: number }[] = []) =>
    list.find((entry) => entry.currency === currency)?.value ?? 0;
  const revenue = async (org: Org) =>
    (await t.app.inject({ url: "/api/metrics/revenue", headers: org.headers })).json();
  const ledger = async (org: Org, partner: Org) => {
    const response = await t.app.inject({ url: "/api/metrics/partners", headers: org.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response
      .json()
      .partners.find((row: { organizationId: string }) => row.organizationId === partner.organizationId)
      ?.revenue;
  };
  const [advertiserRevenue, sharerRevenue, advertiserLedger, sharerLedger] = await Promise.all([
    revenue(advertiser),
    revenue(sharer),
    ledger(advertiser, sharer),
    ledger(sharer, advertiser),
  ]);
  return {
    received: valueIn(advertiserRevenue.received),
    sent: valueIn(sharerRevenue.sent),
    ledgerReceived: valueIn(advertiserLedger?.received),
    ledgerSent: valueIn(sharerLedger?.sent),
  };
}
const net = (value: number) => ({ received: value, sent: value, ledgerReceived: value, ledgerSent: value });

const leadsOf = (org: Org) =>
  t.app.inject({ url: "/api/metrics/leads", headers: org.headers }).then((response) => response.json());

/** The conversion's row of the conversions export, for `org`. */
async function exportRow(org: Org, conversionId: string): Promise<string> {
  const today = new Date().toISOString().slice(0, 10);
  const response = await t.app.inject({
    url: `/api/exports/conversions.csv?from=${today}&to=${today}`,
    headers: org.headers,
  });
  expect(response.statusCode).toBe(200);
  return response.body.split("\r\n").find((line) => line.startsWith(`${conversionId},`)) ?? "";
}

/** The refunded messages each side has received for `conversionId`, verified, oldest first. */
async function refundedMessages(conversionId: string) {
  await t.app.outbox.drain();
  const of = (path: string) =>
    receiver
      .at(path)
      .map((hit) =>
        new Webhook(secrets[path] as string).verify(hit.body, hit.headers as Record<string, string>),
      )
      .map((message) => conversionRefundedMessageSchema.parse(message))
      .filter((message) => message.data.conversionId === conversionId)
      .sort((a, b) => a.data.occurredAt.localeCompare(b.data.occurredAt));
  return { advertiser: of("/advertiser"), sharer: of("/sharer") };
}

async function refundedMinor(conversionId: string): Promise<number | undefined> {
  const [row] = await t.database.db.select().from(conversions).where(eq(conversions.id, conversionId));
  return row?.refundedMinor;
}

describe("POST /api/marketing/refunds", () => {
  it("takes back part, then all that remains, net everywhere, a lead still", async () => {
    const id = await convert({ value: 100, currency: "EUR", eventId: "order-eur-1" });
    expect(await figures("EUR")).toEqual(net(100));
    const leads = { advertiser: await leadsOf(advertiser), sharer: await leadsOf(sharer) };

    const partial = await refund({ conversionId: id, refundId: "credit-note-1", value: 30.5 });
    expect(partial.statusCode, partial.body).toBe(201);
    expect(partial.json()).toEqual({
      id: expect.any(String),
      conversionId: id,
      value: 30.5,
      currency: "EUR",
      duplicate: false,
    });
    expect(await figures("EUR")).toEqual(net(69.5));
    expect((await exportRow(advertiser, id)).endsWith(`,100.00,EUR,order-eur-1,${collateralId},30.50`)).toBe(
      true,
    );
    expect(await exportRow(sharer, id)).toMatch(/,sent,.*,100\.00,EUR,order-eur-1,[^,]+,30\.50$/);

    // The rest, named by the conversion's event id, without a value.
    const rest = await refund({ eventId: "order-eur-1", refundId: "credit-note-2" });
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json()).toMatchObject({ conversionId: id, value: 69.5, currency: "EUR", duplicate: false });
    expect(await figures("EUR")).toEqual(net(0));
    expect(await exportRow(advertiser, id)).toMatch(/,100\.00,EUR,order-eur-1,[^,]+,100\.00$/);
    expect(await refundedMinor(id)).toBe(10_000);
    // A refunded conversion stays a lead.
    expect(await leadsOf(advertiser)).toEqual(leads.advertiser);
    expect(await leadsOf(sharer)).toEqual(leads.sharer);

    // Nothing remains.
    const more = await refund({ conversionId: id, refundId: "credit-note-3" });
    expect(more.statusCode).toBe(400);
    expect(more.json()).toEqual({ message: REFUND_MESSAGES.nothingLeft });

    const messages = await refundedMessages(id);
    expect(messages.advertiser.map((message) => message.data)).toEqual([
      {
        refundId: partial.json().id,
        conversionId: id,
        direction: "received",
        value: 30.5,
        currency: "EUR",
        reason: "refund",
        partner: { id: sharer.organizationId, name: "refundsharer" },
        occurredAt: expect.any(String),
        externalRefundId: "credit-note-1",
        refundedTotal: 30.5,
        netValue: 69.5,
      },
      expect.objectContaining({
        refundId: rest.json().id,
        value: 69.5,
        externalRefundId: "credit-note-2",
        refundedTotal: 100,
        netValue: 0,
      }),
    ]);
    expect(messages.sharer.map((message) => message.data)).toEqual([
      expect.objectContaining({
        refundId: partial.json().id,
        direction: "sent",
        value: 30.5,
        partner: { id: advertiser.organizationId, name: "refundadvertiser" },
      }),
      expect.objectContaining({ refundId: rest.json().id, direction: "sent", value: 69.5 }),
    ]);
    // The fields in the schema's order.
    const [hit] = receiver.at("/advertiser");
    expect(Object.keys(JSON.parse(hit?.body ?? "{}").data)).toEqual(
      Object.keys(conversionRefundedMessageSchema.shape.data.shape),
    );
  });

  it("answers a repeated refundId with the first refund, and takes nothing more", async () => {
    const id = await convert({ value: 50, currency: "CHF" });
    const first = await refund({ conversionId: id, refundId: "dup-1", value: 10 });
    expect(first.statusCode).toBe(201);
    for (const payload of [
      { conversionId: id, refundId: "dup-1", value: 10 },
      { conversionId: id, refundId: "dup-1", value: 25 },
      { conversionId: id, refundId: "dup-1" },
    ]) {
      const again = await refund(payload);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ ...first.json(), duplicate: true });
    }
    expect(await figures("CHF")).toEqual(net(40));
    expect(await refundedMinor(id)).toBe(1000);
    expect((await refundedMessages(id)).advertiser).toHaveLength(1);
  });

  it("refuses more than what remains, and values that are not money of the conversion's currency", async () => {
    const id = await convert({ value: 20, currency: "USD", eventId: "order-usd-limits" });
    const yen = await convert({ value: 500, currency: "JPY" });
    const cases: [object, string][] = [
      [{ conversionId: id, refundId: "over-1", value: 20.01 }, REFUND_MESSAGES.tooMuch("20.00", "USD")],
      [{ conversionId: id, refundId: "over-2", value: 1.234 }, "value must have at most 2 decimals for USD"],
      [{ conversionId: yen, refundId: "over-3", value: 1.5 }, "value must be a whole number for JPY"],
      [{ conversionId: yen, refundId: "over-4", value: 501 }, REFUND_MESSAGES.tooMuch("500", "JPY")],
    ];
    for (const [payload, message] of cases) {
      const response = await refund(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toEqual({ message });
    }
    expect(await refundedMinor(id)).toBe(0);
    expect(await refundedMinor(yen)).toBe(0);
    // Exactly what remains is fine.
    expect((await refund({ conversionId: id, refundId: "exact", value: 20 })).statusCode).toBe(201);
  });

  it("answers 404 for another organization's conversion and an unknown one, 400 for one without value", async () => {
    const id = await convert({ value: 10, currency: "SEK", eventId: "order-sek-1" });
    for (const [payload, key] of [
      [{ conversionId: id, refundId: "theirs-1" }, outsiderKey],
      [{ eventId: "order-sek-1", refundId: "theirs-2" }, outsiderKey],
      // The sharer's link earned it, but the advertiser received it: only its key refunds it.
      [{ conversionId: id, refundId: "theirs-3" }, sharerKey],
      [{ conversionId: "no-such-conversion", refundId: "unknown-1" }, advertiserKey],
      [{ eventId: "no-such-event", refundId: "unknown-2" }, advertiserKey],
    ] as const) {
      const response = await refund(payload, key);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: REFUND_MESSAGES.notFound });
    }
    const lead = await convert({ type: "signup" });
    const valueless = await refund({ conversionId: lead, refundId: "no-value" });
    expect(valueless.statusCode).toBe(400);
    expect(valueless.json()).toEqual({ message: REFUND_MESSAGES.noValue });
    expect(await refundedMinor(id)).toBe(0);
    expect((await refund({ conversionId: id, refundId: "x" }, "not-a-key")).statusCode).toBe(401);
  });

  it("refuses bad input with 4xx {message} and changes nothing", async () => {
    const id = await convert({ value: 10, currency: "NOK" });
    const count = async () =>
      Number(
        rowsOf<{ n: string }>(await t.database.db.execute(sql`select count(*)::text as n from refunds`))[0]
          ?.n,
      );
    const before = await count();
    const bodies: unknown[] = [
      {},
      { refundId: "r" },
      { conversionId: id },
      { conversionId: id, eventId: "e", refundId: "r" },
      { conversionId: id, refundId: "" },
      { conversionId: id, refundId: "r".repeat(129) },
      { conversionId: id, refundId: "a\u0000b" },
      { conversionId: "a\u0000b", refundId: "r" },
      { conversionId: id, refundId: 42 },
      { conversionId: 42, refundId: "r" },
      { conversionId: id, refundId: "r", value: "5" },
      { conversionId: id, refundId: "r", value: 0 },
      { conversionId: id, refundId: "r", value: -1 },
      { conversionId: id, refundId: "r", value: null },
      { conversionId: id, refundId: "r", value: 1e300 },
      [],
      "text",
    ];
    for (const payload of bodies) {
      const response = await refund(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(typeof payload === "string" ? 415 : 400);
      expect(Object.keys(response.json())).toEqual(["message"]);
    }
    const raw = async (payload: string) => {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/marketing/refunds",
        headers: { "x-api-key": advertiserKey, "content-type": "application/json" },
        payload,
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(Object.keys(response.json())).toEqual(["message"]);
    };
    await raw('{"conversionId":');
    await raw(`{"conversionId":"${id}","refundId":"big","pad":"${"x".repeat(2 * 1024 * 1024)}"}`);
    expect(await count()).toBe(before);
    expect(await refundedMinor(id)).toBe(0);
  });

  it("never takes back more than the value when refunds race", async () => {
    const id = await convert({ value: 10, currency: "DKK" });
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        refund({ conversionId: id, refundId: `race-${index}`, value: 3 }),
      ),
    );
    const codes = responses.map((response) => response.statusCode).sort();
    expect(codes).toEqual([201, 201, 201, 400, 400, 400]);
    const same = await Promise.all(
      Array.from({ length: 4 }, () => refund({ conversionId: id, refundId: "race-same", value: 1 })),
    );
    expect(same.map((response) => response.statusCode).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(same.map((response) => response.json().id)).size).toBe(1);
    expect(await refundedMinor(id)).toBe(1000);
    expect(await figures("DKK")).toEqual(net(0));
  });
});

describe("net revenue by day", () => {
  it("takes a refund from the revenue of the day it happens, not the conversion's", async () => {
    const id = await convert({ value: 40, currency: "PLN" });
    const tomorrow = new Date(Date.now() + 86_400_000);
    const result = await recordRefund(t.database.db, {
      organizationId: advertiser.organizationId,
      target: { conversionId: id },
      refundId: "next-day",
      kind: "refund",
      amount: { major: 15 },
      channel: "key",
      now: tomorrow,
    });
    expect(result.outcome).toBe("recorded");
    const daily = async (org: Org) =>
      (await t.app.inject({ url: "/api/metrics/revenue/daily", headers: org.headers }))
        .json()
        .filter((row: { currency: string }) => row.currency === "PLN")
        .map((row: { day: string; sent: number; received: number }) => [row.day, row.sent, row.received]);
    const [today, next] = [new Date().toISOString().slice(0, 10), tomorrow.toISOString().slice(0, 10)];
    expect(await daily(advertiser)).toEqual([
      [today, 0, 40],
      [next, 0, -15],
    ]);
    expect(await daily(sharer)).toEqual([
      [today, 40, 0],
      [next, -15, 0],
    ]);
    expect(await figures("PLN")).toEqual(net(25));
  });
});

describe("channels", () => {
  it("keeps how each conversion was recorded", async () => {
    const keyed = await convert({ value: 1 });
    const pixelClick = await click();
    const pixel = await t.app.inject({
      url: `/api/marketing/conversion/${pixelClick}?type=signup&org=${advertiser.organizationId}`,
    });
    expect(pixel.statusCode).toBe(200);
    const rows = await t.database.db
      .select()
      .from(conversions)
      .where(eq(conversions.targetOrgId, advertiser.organizationId));
    expect(rows.find((row) => row.id === keyed)?.channel).toBe("key");
    expect(rows.find((row) => row.clickId === pixelClick)?.channel).toBe("pixel");
  });
});

describe("Stripe refunds and disputes", () => {
  let eventCounter = 0;
  const stripeEvent = (
    type: string,
    object: Record<string, unknown>,
    id = `evt_refunds_${++eventCounter}`,
  ) => ({
    id,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  const deliver = async (event: object) => {
    const payload = JSON.stringify(event);
    const response = await t.app.inject({
      method: "POST",
      url: `/api/integrations/stripe/webhook/${advertiser.organizationId}`,
      headers: {
        "content-type": "application/json",
        "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET }),
      },
      payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ received: true });
  };
  /** A Checkout paid with `paymentIntent`: the conversion it recorded. */
  async function checkout(paymentIntent: unknown, amount: number, currency: string, customer?: string) {
    const clickId = await click();
    await deliver(
      stripeEvent("checkout.session.completed", {
        id: `cs_${clickId.slice(0, 8)}`,
        object: "checkout.session",
        client_reference_id: clickId,
        amount_total: amount,
        currency,
        customer: customer ?? null,
        payment_intent: paymentIntent,
      }),
    );
    const [row] = await t.database.db.select().from(conversions).where(eq(conversions.clickId, clickId));
    if (!row) throw new Error("no conversion recorded");
    return row;
  }
  const refundsOf = (conversionId: string) =>
    t.database.db.select().from(refunds).where(eq(refunds.conversionId, conversionId));

  it("keeps the payment intent of Checkouts and invoices, old and new API versions", async () => {
    const row = await checkout(
      { id: "pi_expanded_1", object: "payment_intent" },
      1000,
      "usd",
      "cus_refunds_1",
    );
    expect(row).toMatchObject({ channel: "stripe", paymentIntentId: "pi_expanded_1" });
    const invoice = (id: string, fields: object) =>
      stripeEvent("invoice.paid", {
        id,
        object: "invoice",
        customer: "cus_refunds_1",
        amount_paid: 1000,
        currency: "usd",
        billing_reason: "subscription_cycle",
        ...fields,
      });
    await deliver(invoice("in_refunds_old", { payment_intent: "pi_invoice_old" }));
    await deliver(
      invoice("in_refunds_new", {
        payments: {
          object: "list",
          data: [
            {
              object: "invoice_payment",
              status: "paid",
              payment: { type: "payment_intent", payment_intent: "pi_invoice_new" },
            },
          ],
        },
      }),
    );
    // A payment intent of a shape Buddy cannot read: the purchase is still recorded, without it.
    await deliver(invoice("in_refunds_odd", { payment_intent: 42 }));
    const rows = await t.database.db
      .select()
      .from(conversions)
      .where(eq(conversions.targetOrgId, advertiser.organizationId));
    const byEvent = (eventId: string) => rows.find((entry) => entry.eventId === eventId);
    expect(byEvent("in_refunds_old")).toMatchObject({ channel: "stripe", paymentIntentId: "pi_invoice_old" });
    expect(byEvent("in_refunds_new")).toMatchObject({ paymentIntentId: "pi_invoice_new" });
    expect(byEvent("in_refunds_odd")).toMatchObject({ paymentIntentId: null, valueMinor: 1000 });
  });

  it("takes back what amount_refunded rose by, once per event, never more than the purchase", async () => {
    const row = await checkout("pi_refund_1", 5000, "cad");
    expect(await figures("CAD")).toEqual(net(50));
    const charge = (amountRefunded: number, paymentIntent = "pi_refund_1") => ({
      id: "ch_refund_1",
      object: "charge",
      amount: 5000,
      amount_refunded: amountRefunded,
      currency: "cad",
      payment_intent: paymentIntent,
      refunded: amountRefunded >= 5000,
    });
    const partial = stripeEvent("charge.refunded", charge(1500));
    await deliver(partial);
    await deliver(partial);
    // An older, smaller total arriving late adds nothing.
    await deliver(stripeEvent("charge.refunded", charge(1000)));
    expect(await figures("CAD")).toEqual(net(35));
    expect(await exportRow(advertiser, row.id)).toMatch(/,50\.00,CAD,[^,]*,[^,]+,15\.00$/);

    await deliver(stripeEvent("charge.refunded", charge(5000)));
    expect(await figures("CAD")).toEqual(net(0));
    // More than the purchase (a later charge of the same payment): nothing more.
    await deliver(stripeEvent("charge.refunded", charge(7000)));
    expect(await refundedMinor(row.id)).toBe(5000);
    const recorded = await refundsOf(row.id);
    expect(
      recorded.map((entry) => [entry.kind, entry.valueMinor, entry.channel, entry.refundId]).sort(),
    ).toEqual(
      [
        ["refund", 1500, "stripe", `stripe:${partial.id}`],
        ["refund", 3500, "stripe", expect.stringMatching(/^stripe:evt_refunds_/)],
      ].sort(),
    );
    // A payment Buddy never recorded: 200, nothing.
    const before = await t.database.db.select().from(refunds);
    await deliver(stripeEvent("charge.refunded", charge(100, "pi_unknown")));
    await deliver(stripeEvent("charge.refunded", { ...charge(100), payment_intent: null }));
    expect(await t.database.db.select().from(refunds)).toHaveLength(before.length);

    const messages = await refundedMessages(row.id);
    expect(messages.advertiser.map((message) => [message.data.value, message.data.reason])).toEqual([
      [15, "refund"],
      [35, "refund"],
    ]);
    expect(messages.sharer.map((message) => [message.data.value, message.data.direction])).toEqual([
      [15, "sent"],
      [35, "sent"],
    ]);
  });

  it("takes a disputed amount back, and gives it back when the dispute is won", async () => {
    const row = await checkout("pi_dispute_1", 8000, "gbp");
    const dispute = (status: string) => ({
      id: "du_refunds_1",
      object: "dispute",
      amount: 8000,
      currency: "gbp",
      charge: "ch_dispute_1",
      payment_intent: "pi_dispute_1",
      status,
    });
    const created = stripeEvent("charge.dispute.created", dispute("needs_response"));
    await deliver(created);
    await deliver(created);
    expect(await figures("GBP")).toEqual(net(0));
    expect(await exportRow(advertiser, row.id)).toMatch(/,80\.00,GBP,[^,]*,[^,]+,80\.00$/);
    const leads = await leadsOf(advertiser);

    // Closed but lost: nothing changes. Closed and won: it comes back, once.
    await deliver(stripeEvent("charge.dispute.closed", dispute("lost")));
    expect(await figures("GBP")).toEqual(net(0));
    const won = stripeEvent("charge.dispute.closed", dispute("won"));
    await deliver(won);
    await deliver(won);
    await deliver(stripeEvent("charge.dispute.closed", dispute("won")));
    expect(await figures("GBP")).toEqual(net(80));
    expect(await exportRow(advertiser, row.id)).toMatch(/,80\.00,GBP,[^,]*,[^,]+,$/);
    expect(await leadsOf(advertiser)).toEqual(leads);
    expect(
      (await refundsOf(row.id)).map((entry) => [entry.refundId, entry.kind, entry.valueMinor]).sort(),
    ).toEqual([
      ["stripe:dispute:du_refunds_1", "dispute", 8000],
      ["stripe:dispute_won:du_refunds_1", "dispute_won", -8000],
    ]);

    const messages = await refundedMessages(row.id);
    for (const [side, direction] of [
      ["advertiser", "received"],
      ["sharer", "sent"],
    ] as const) {
      expect(messages[side].map((message) => message.data)).toEqual([
        expect.objectContaining({ direction, value: 80, reason: "dispute", refundedTotal: 80, netValue: 0 }),
        expect.objectContaining({
          direction,
          value: -80,
          reason: "dispute_won",
          refundedTotal: 0,
          netValue: 80,
        }),
      ]);
    }
    // A won dispute Buddy never saw opened gives nothing back.
    await deliver(stripeEvent("charge.dispute.closed", { ...dispute("won"), id: "du_never_opened" }));
    expect(await figures("GBP")).toEqual(net(80));
  });
});
