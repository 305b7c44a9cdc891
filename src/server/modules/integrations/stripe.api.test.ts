import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversions, customerBindings, stripeConnections } from "../../db/schema";
import {
  addMember,
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
const SECRET = "whsec_advertiserSigningSecret0123456789";
const OUTSIDER_SECRET = "whsec_outsiderSigningSecret0123456789";

beforeAll(async () => {
  t = await createTestApp();
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
  event: object,
  options: { secret?: string; timestamp?: number; signature?: string } = {},
) {
  const payload = JSON.stringify(event);
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
    expect((await connection(member.headers)).json()).toEqual({ connected: false, webhookUrl });
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
    expect(connected.json()).toEqual({ connected: true, webhookUrl });
    expect(connected.body).not.toContain(SECRET);
    expect((await connection(member.headers)).json()).toEqual({ connected: true, webhookUrl });
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
    expect(revenue.json().sent).toEqual([{ currency: "USD", value: 49.99 }]);
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
