import { BILLING_MESSAGES } from "@shared/billing";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, createOrganization, createTestApp, type TestApp } from "../../testing/app";
import { startFakeStripe } from "../../testing/fake-stripe";
import { createStripeGateway } from "./billing-gateway";

const FREE = { plan: "free", subscriptionStatus: null, currentPeriodEnd: null, cancelAtPeriodEnd: false };
const WEBHOOK_SECRET = "whsec_test_secret";

describe("Billing without Stripe (the beta)", () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createOrganization>>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createOrganization(t, "freeco");
  });
  afterAll(() => t.close());

  it("shows the free plan", async () => {
    const response = await t.app.inject({ url: "/api/billing", headers: admin.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(FREE);
  });

  it("answers the subscription calls and the webhook with a clear 503", async () => {
    for (const url of ["/api/billing/portal", "/api/billing/cancel", "/api/billing/reactivate"]) {
      const response = await t.app.inject({ method: "POST", url, headers: admin.headers });
      expect(response.statusCode, url).toBe(503);
      expect(response.json()).toEqual({ message: BILLING_MESSAGES.notConfigured });
    }
    const webhook = await t.app.inject({
      method: "POST",
      url: "/api/billing/webhook",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=abc" },
      payload: "{}",
    });
    expect(webhook.statusCode).toBe(503);
  });

  it("is for admins only, and needs a session", async () => {
    const member = await addMember(t, admin.organizationId);
    expect((await t.app.inject({ url: "/api/billing", headers: member.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ url: "/api/billing" })).statusCode).toBe(401);
  });
});

describe("Billing with Stripe", () => {
  let t: TestApp;
  let fake: Awaited<ReturnType<typeof startFakeStripe>>;
  let admin: Awaited<ReturnType<typeof createOrganization>>;
  const stripe = new Stripe("sk_test_fake");

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await createTestApp({
      env: { STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
      billingGateway: createStripeGateway({
        secretKey: "sk_test_fake",
        webhookSecret: WEBHOOK_SECRET,
        endpoint: fake.endpoint,
      }),
    });
    admin = await createOrganization(t, "proco");
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const sendEvent = (event: object | null, secret = WEBHOOK_SECRET, timestamp?: number) => {
    const payload = JSON.stringify(event);
    return t.app.inject({
      method: "POST",
      url: "/api/billing/webhook",
      headers: {
        "content-type": "application/json",
        "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }),
      },
      payload,
    });
  };
  const billing = async () => (await t.app.inject({ url: "/api/billing", headers: admin.headers })).json();
  let eventSeq = 0;
  const subscriptionEvent = (type: string, object: object, created: number) => ({
    id: `evt_${eventSeq++}`,
    object: "event",
    type,
    created,
    data: { object },
  });

  it("opens the customer portal, creating the Stripe customer once", async () => {
    const first = await t.app.inject({ method: "POST", url: "/api/billing/portal", headers: admin.headers });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().url).toBe("https://billing.stripe.test/p/session/cus_fake_1");
    const again = await t.app.inject({ method: "POST", url: "/api/billing/portal", headers: admin.headers });
    expect(again.json().url).toBe("https://billing.stripe.test/p/session/cus_fake_1");

    expect(fake.requests.filter((r) => r.path === "/v1/customers")).toHaveLength(1);
    const created = fake.requests.find((r) => r.path === "/v1/customers");
    expect(created?.authorization).toBe("Bearer sk_test_fake");
    expect(created?.form.get("metadata[organizationId]")).toBe(admin.organizationId);
    const portal = fake.requests.find((r) => r.path === "/v1/billing_portal/sessions");
    expect(portal?.form.get("return_url")).toBe("http://buddy.test/dashboard/settings?tab=billing");
  });

  it("has nothing to cancel before a subscription exists", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/billing/cancel",
      headers: admin.headers,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: BILLING_MESSAGES.noSubscription });
  });

  it("refuses a webhook with a bad or missing signature, changing nothing", async () => {
    const periodEnd = Math.floor(Date.now() / 1000) + 30 * 86400;
    const object = fake.addSubscription("sub_forged", "cus_fake_1", periodEnd);
    const forged = await sendEvent(
      subscriptionEvent("customer.subscription.created", object, periodEnd),
      "whsec_wrong",
    );
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ message: BILLING_MESSAGES.badSignature });
    const unsigned = await t.app.inject({
      method: "POST",
      url: "/api/billing/webhook",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify(subscriptionEvent("customer.subscription.created", object, periodEnd)),
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await billing()).toEqual(FREE);
  });

  it("keeps the subscription from signed events; Cancel and Resume go through Stripe", async () => {
    const now = Math.floor(Date.now() / 1000);
    const periodEnd = now + 30 * 86400;
    const object = fake.addSubscription("sub_1", "cus_fake_1", periodEnd);
    const created = await sendEvent(subscriptionEvent("customer.subscription.created", object, now - 100));
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toEqual({ received: true });
    expect(await billing()).toEqual({
      plan: "pro",
      subscriptionStatus: "active",
      currentPeriodEnd: new Date(periodEnd * 1000).toISOString(),
      cancelAtPeriodEnd: false,
    });

    const cancelled = await t.app.inject({
      method: "POST",
      url: "/api/billing/cancel",
      headers: admin.headers,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ cancelAtPeriodEnd: true, message: BILLING_MESSAGES.cancelled });
    expect(fake.requests.at(-1)?.form.get("cancel_at_period_end")).toBe("true");
    expect((await billing()).cancelAtPeriodEnd).toBe(true);

    // An event created before the cancellation arrives late: it does not undo it.
    const late = await sendEvent(subscriptionEvent("customer.subscription.updated", object, now - 50));
    expect(late.statusCode).toBe(200);
    expect((await billing()).cancelAtPeriodEnd).toBe(true);

    const resumed = await t.app.inject({
      method: "POST",
      url: "/api/billing/reactivate",
      headers: admin.headers,
    });
    expect(resumed.json()).toMatchObject({ cancelAtPeriodEnd: false, message: BILLING_MESSAGES.resumed });
    expect(fake.requests.at(-1)?.form.get("cancel_at_period_end")).toBe("false");

    // Stripe ends the subscription: back to the free plan.
    const deleted = await sendEvent(subscriptionEvent("customer.subscription.deleted", object, now + 100));
    expect(deleted.statusCode).toBe(200);
    expect(await billing()).toEqual(FREE);
  });

  it("ignores events for customers that are not ours, and other event types", async () => {
    const now = Math.floor(Date.now() / 1000);
    const stranger = fake.addSubscription("sub_stranger", "cus_someone_else", now + 86400);
    expect(
      (await sendEvent(subscriptionEvent("customer.subscription.created", stranger, now + 200))).statusCode,
    ).toBe(200);
    expect((await sendEvent(subscriptionEvent("invoice.paid", { id: "in_1" }, now + 200))).statusCode).toBe(
      200,
    );
    expect(await billing()).toEqual(FREE);
  });

  it("refuses a signature dated more than 5 minutes ahead or ago, as the organizations' Stripe does", async () => {
    const now = Math.floor(Date.now() / 1000);
    const object = fake.addSubscription("sub_out_of_time", "cus_fake_1", now + 86400);
    for (const timestamp of [now + 3600, now - 3600]) {
      const response = await sendEvent(
        subscriptionEvent("customer.subscription.created", object, now + 300),
        WEBHOOK_SECRET,
        timestamp,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: BILLING_MESSAGES.badSignature });
    }
    expect(await billing()).toEqual(FREE);
  });

  it("answers 200 to a signed subscription event it cannot read, changing nothing, and counts it", async () => {
    const now = Math.floor(Date.now() / 1000);
    const object = fake.addSubscription("sub_unreadable", "cus_fake_1", now + 86400);
    const counted = async () => {
      const metric = t.app.metrics.registry.getSingleMetric("buddy_stripe_events_unreadable_total");
      return ((await metric?.get())?.values ?? [])
        .filter((value) => value.labels.webhook === "billing")
        .reduce((sum, value) => sum + value.value, 0);
    };
    const before = await counted();
    const created = (data: unknown) => ({
      ...subscriptionEvent("customer.subscription.created", object, now + 400),
      data,
    });
    for (const event of [
      created(undefined),
      created({}),
      created({ object: { ...object, customer: 42 } }),
      created({ object: { ...object, cancel_at_period_end: "no" } }),
      null,
    ]) {
      const response = await sendEvent(event);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ received: true });
    }
    expect(await counted()).toBe(before + 5);
    expect(await billing()).toEqual(FREE);
  });

  it("keeps each organization's billing to itself", async () => {
    const other = await createOrganization(t, "otherbillco");
    expect((await t.app.inject({ url: "/api/billing", headers: other.headers })).json()).toEqual(FREE);
    const cancel = await t.app.inject({ method: "POST", url: "/api/billing/cancel", headers: other.headers });
    expect(cancel.statusCode).toBe(400);
  });
});
