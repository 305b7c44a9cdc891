import {
  conversionCreatedMessageSchema,
  conversionRefundedMessageSchema,
  overlapCompletedMessageSchema,
  relationshipCreatedMessageSchema,
  WEBHOOK_MESSAGES,
  webhookTestMessageSchema,
} from "@shared/webhooks";
import { eq } from "drizzle-orm";
import sodium from "libsodium-wrappers-sumo";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { jobs, webhookEndpoints } from "../../db/schema";
import { createOrganization, createTestApp, relate, type TestApp } from "../../testing/app";
import { clickThrough, createSharedAds } from "../../testing/buddies";
import { declarePopulation, runOverlap } from "../../testing/overlap-client";
import { startWebhookReceiver, type WebhookReceiver } from "../../testing/webhook-receiver";

/** CONTRACT §9 through the API, against a real receiver: endpoints, events, signatures, delivery. */
let t: TestApp;
let receiver: WebhookReceiver;
let sharer: Awaited<ReturnType<typeof createOrganization>>;
let advertiser: Awaited<ReturnType<typeof createOrganization>>;
let outsider: Awaited<ReturnType<typeof createOrganization>>;
let trackedUrl: string;
let adId: string;
let advertiserKey: string;
let visitor = 0;
/** The clock of delivery: real time plus what a test moves it by. */
let clockOffsetMs = 0;

type Org = typeof sharer;
type Created = { id: string; url: string; events: string[]; enabled: boolean; secret: string };

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestApp({
    env: { OUTBOUND_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_DELAYS: "50ms,50ms" },
    webhooks: { now: () => new Date(Date.now() + clockOffsetMs) },
  });
  const shared = await createSharedAds(
    t,
    ["hooksharer", "hookadvertiser"],
    [{ name: "Try it", description: "The best tool.", ctaText: "Start" }],
  );
  ({ sharer, advertiser } = shared);
  trackedUrl = shared.trackedUrls[0] as string;
  adId = shared.adIds[0] as string;
  outsider = await createOrganization(t, "hookoutsider");
  const key = await t.app.inject({
    method: "POST",
    url: "/api/api-keys",
    headers: advertiser.headers,
    payload: { name: "hooks" },
  });
  advertiserKey = key.json().key;
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

async function createEndpoint(org: Org, path: string, events: string[] = ["conversion.created"]) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/webhooks",
    headers: org.headers,
    payload: { url: receiver.url(path), events },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Created;
}

const deliveriesOf = (org: Org, id: string) =>
  t.app.inject({ url: `/api/webhooks/${id}/deliveries`, headers: org.headers }).then((r) => r.json());

async function convert(payload: object) {
  visitor++;
  const clickId = await clickThrough(t, trackedUrl, `203.0.113.${visitor}`);
  const response = await t.app.inject({
    method: "POST",
    url: "/api/marketing/conversion",
    headers: { "x-api-key": advertiserKey },
    payload: { clickId, ...payload },
  });
  expect(response.statusCode, response.body).toBe(201);
  return { clickId, id: response.json().id as string };
}

/** Verifies a received message with the secret, as a receiver following Standard Webhooks does. */
function verify(secret: string, hit: { body: string; headers: Record<string, unknown> }) {
  return new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>);
}

describe("endpoints", () => {
  it("are created with a secret shown once, listed masked, changed and deleted", async () => {
    const created = await createEndpoint(advertiser, "/crud", ["conversion.created", "relationship.created"]);
    expect(created).toMatchObject({ enabled: true, events: ["conversion.created", "relationship.created"] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const list = await t.app.inject({ url: "/api/webhooks", headers: advertiser.headers });
    const listed = list.json().find((endpoint: Created) => endpoint.id === created.id);
    expect(listed.secret).toBe(`whsec_••••••••${created.secret.slice(-4)}`);
    expect(list.body).not.toContain(created.secret);
    // Stored sealed: not even the database holds it in the clear.
    const [row] = await t.database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.secret.slice("whsec_".length));

    const patched = await t.app.inject({
      method: "PATCH",
      url: `/api/webhooks/${created.id}`,
      headers: advertiser.headers,
      payload: {
        url: receiver.url("/crud2"),
        events: ["relationship.created", "relationship.created"],
        enabled: false,
      },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      url: receiver.url("/crud2"),
      events: ["relationship.created"],
      enabled: false,
    });

    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/webhooks/${created.id}`,
      headers: advertiser.headers,
    });
    expect(removed.statusCode).toBe(204);
    const again = await t.app.inject({
      method: "DELETE",
      url: `/api/webhooks/${created.id}`,
      headers: advertiser.headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it("refuses bad input with the rule's message", async () => {
    const post = (payload: object) =>
      t.app.inject({ method: "POST", url: "/api/webhooks", headers: advertiser.headers, payload });
    const cases: [object, string][] = [
      [{ url: receiver.url("/x"), events: [] }, WEBHOOK_MESSAGES.events],
      [{ url: receiver.url("/x"), events: ["lead.created"] }, WEBHOOK_MESSAGES.unknownEvent],
      [{ url: "ftp://hooks.example/x", events: ["conversion.created"] }, WEBHOOK_MESSAGES.url],
      [{ url: "hooks.example/x", events: ["conversion.created"] }, WEBHOOK_MESSAGES.url],
      [
        { url: "https://user:pass@hooks.example/x", events: ["conversion.created"] },
        WEBHOOK_MESSAGES.urlCredentials,
      ],
      [
        { url: `https://hooks.example/${"x".repeat(2100)}`, events: ["conversion.created"] },
        WEBHOOK_MESSAGES.urlLength,
      ],
    ];
    for (const [payload, message] of cases) {
      const response = await post(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toContain(message);
    }
    const patch = await t.app.inject({
      method: "PATCH",
      url: `/api/webhooks/${(await createEndpoint(advertiser, "/bad")).id}`,
      headers: advertiser.headers,
      payload: {},
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().message).toContain(WEBHOOK_MESSAGES.nothingToChange);
  });

  it("are another organization's: 404 on every route", async () => {
    const created = await createEndpoint(advertiser, "/theirs");
    const calls = [
      { method: "PATCH" as const, url: `/api/webhooks/${created.id}`, payload: { enabled: false } },
      { method: "DELETE" as const, url: `/api/webhooks/${created.id}` },
      { method: "POST" as const, url: `/api/webhooks/${created.id}/rotate-secret` },
      { method: "POST" as const, url: `/api/webhooks/${created.id}/test` },
      { method: "GET" as const, url: `/api/webhooks/${created.id}/deliveries` },
    ];
    for (const call of calls) {
      const response = await t.app.inject({ ...call, headers: outsider.headers });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(404);
      expect(response.json()).toEqual({ message: WEBHOOK_MESSAGES.notFound });
    }
    const list = await t.app.inject({ url: "/api/webhooks", headers: outsider.headers });
    expect(list.json()).toEqual([]);
    const [row] = await t.database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, created.id));
    expect(row?.enabled).toBe(true);
  });
});

describe("SSRF", () => {
  let strict: TestApp;
  let org: Org;
  beforeAll(async () => {
    // No OUTBOUND_ALLOW_PRIVATE; a name that resolves to loopback, as DNS might answer later.
    strict = await createTestApp({
      webhooks: {
        lookup: async (hostname) =>
          hostname === "turned-private.example" ? [{ address: "127.0.0.1", family: 4 }] : [],
      },
    });
    org = await createOrganization(strict, "hookstrict");
  });
  afterAll(() => strict.close());

  it("refuses literal private and loopback addresses, local names and odd ports when saved", async () => {
    for (const [url, message] of [
      ["http://127.0.0.1/hook", WEBHOOK_MESSAGES.privateAddress],
      ["http://10.1.2.3/hook", WEBHOOK_MESSAGES.privateAddress],
      ["http://169.254.169.254/latest", WEBHOOK_MESSAGES.privateAddress],
      ["http://[::1]/hook", WEBHOOK_MESSAGES.privateAddress],
      ["http://[::ffff:192.168.0.1]/hook", WEBHOOK_MESSAGES.privateAddress],
      ["http://localhost/hook", WEBHOOK_MESSAGES.privateAddress],
      ["https://hooks.example:8443/hook", WEBHOOK_MESSAGES.port],
    ] as const) {
      const response = await strict.app.inject({
        method: "POST",
        url: "/api/webhooks",
        headers: org.headers,
        payload: { url, events: ["conversion.created"] },
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toEqual({ message: message });
    }
    const rows = await strict.database.db.select().from(webhookEndpoints);
    expect(rows).toEqual([]);
  });

  it("resolves the name again at delivery and refuses one that now points at a private address", async () => {
    const response = await strict.app.inject({
      method: "POST",
      url: "/api/webhooks",
      headers: org.headers,
      payload: { url: "https://turned-private.example/hook", events: ["conversion.created"] },
    });
    expect(response.statusCode).toBe(201);
    const { id } = response.json();
    await strict.app.inject({ method: "POST", url: `/api/webhooks/${id}/test`, headers: org.headers });
    await strict.app.outbox.drain();
    const [retry, attempt] = await strict.app
      .inject({ url: `/api/webhooks/${id}/deliveries`, headers: org.headers })
      .then((r) => r.json());
    // Refused like an unreachable receiver: retried later (WEBHOOK_RETRY_DELAYS' 5 s).
    expect(retry).toMatchObject({ status: "pending", attempt: 2 });
    expect(attempt).toMatchObject({ status: "failed", responseStatus: null, attempt: 1 });
    expect(attempt.response).toContain("resolves to 127.0.0.1");
    const patched = await strict.app.inject({
      method: "PATCH",
      url: `/api/webhooks/${id}`,
      headers: org.headers,
      payload: { url: "http://192.168.1.1/hook" },
    });
    expect(patched.statusCode).toBe(400);
  });
});

describe("conversion.created", () => {
  it("goes to both organizations, signed with each one's secret, with the conversion's data", async () => {
    const received = await createEndpoint(advertiser, "/advertiser");
    const sent = await createEndpoint(sharer, "/sharer");
    const { clickId, id } = await convert({
      type: "purchase",
      value: 99.5,
      currency: "EUR",
      customerId: "cus_hooks",
      eventId: "evt_hooks_1",
    });
    await t.app.outbox.drain();

    const [toAdvertiser] = receiver.at("/advertiser");
    const [toSharer] = receiver.at("/sharer");
    if (!toAdvertiser || !toSharer) throw new Error("a message is missing");
    const data = {
      conversionId: id,
      type: "purchase",
      clickId,
      customerId: "cus_hooks",
      value: 99.5,
      currency: "EUR",
      eventId: "evt_hooks_1",
      collateralId: adId,
    };
    expect(verify(received.secret, toAdvertiser)).toMatchObject({
      type: "conversion.created",
      data: { ...data, direction: "received", partner: { id: sharer.organizationId, name: "hooksharer" } },
    });
    expect(verify(sent.secret, toSharer)).toMatchObject({
      type: "conversion.created",
      data: {
        ...data,
        direction: "sent",
        partner: { id: advertiser.organizationId, name: "hookadvertiser" },
      },
    });
    // The other's secret does not verify it, and the fields come in the documented order.
    expect(() => verify(sent.secret, toAdvertiser)).toThrow();
    const body = JSON.parse(toAdvertiser.body);
    expect(Object.keys(body)).toEqual(["type", "timestamp", "data"]);
    expect(Object.keys(body.data)).toEqual(Object.keys(conversionCreatedMessageSchema.shape.data.shape));
    expect(conversionCreatedMessageSchema.parse(body)).toEqual(body);
    expect(body.data.occurredAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The job holds ids only: the message is built when it is sent.
    const [queued] = await t.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.id, toAdvertiser.headers["webhook-id"] as string));
    expect(queued?.payload).toEqual({
      endpointId: received.id,
      type: "conversion.created",
      conversionId: id,
      direction: "received",
    });
    expect(toAdvertiser.headers["webhook-id"]).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(toAdvertiser.headers["webhook-id"]).not.toBe(toSharer.headers["webhook-id"]);
    expect(toAdvertiser.headers["content-type"]).toBe("application/json");

    // A repeat is no new conversion: no new message.
    const repeat = await t.app.inject({
      method: "POST",
      url: "/api/marketing/conversion",
      headers: { "x-api-key": advertiserKey },
      payload: { clickId, type: "purchase", value: 99.5, currency: "EUR", eventId: "evt_hooks_1" },
    });
    expect(repeat.statusCode).toBe(200);
    await t.app.outbox.drain();
    expect(receiver.at("/advertiser")).toHaveLength(1);
    expect(receiver.at("/sharer")).toHaveLength(1);

    const [delivery] = await deliveriesOf(advertiser, received.id);
    expect(delivery).toMatchObject({
      messageId: toAdvertiser.headers["webhook-id"],
      eventType: "conversion.created",
      attempt: 1,
      status: "succeeded",
      responseStatus: 200,
      response: "ok",
    });
    expect(delivery.durationMs).toBeGreaterThanOrEqual(0);
    for (const endpoint of [received.id, sent.id]) {
      await t.app.inject({ method: "DELETE", url: `/api/webhooks/${endpoint}`, headers: advertiser.headers });
      await t.app.inject({ method: "DELETE", url: `/api/webhooks/${endpoint}`, headers: sharer.headers });
    }
  });

  it("converts money with the currency's decimals: none for JPY, three for BHD, null without a value", async () => {
    const endpoint = await createEndpoint(advertiser, "/money");
    await convert({ type: "purchase", value: 500, currency: "JPY", eventId: "evt_money_jpy" });
    await convert({ type: "purchase", value: 12.345, currency: "BHD", eventId: "evt_money_bhd" });
    await convert({ type: "signup" });
    await t.app.outbox.drain();
    const values = receiver
      .at("/money")
      .map((hit) => conversionCreatedMessageSchema.parse(verify(endpoint.secret, hit)).data)
      .map(({ value, currency }) => [value, currency]);
    expect(values).toEqual(
      expect.arrayContaining([
        [500, "JPY"],
        [12.345, "BHD"],
        [null, null],
      ]),
    );
    expect(receiver.at("/money").map((hit) => hit.body)).toEqual(
      expect.arrayContaining([expect.stringContaining('"value":500,"currency":"JPY"')]),
    );
    await t.app.inject({
      method: "DELETE",
      url: `/api/webhooks/${endpoint.id}`,
      headers: advertiser.headers,
    });
  });

  it("is not sent to an endpoint that did not ask for it, nor to a disabled one", async () => {
    const other = await createEndpoint(advertiser, "/only-relationships", ["relationship.created"]);
    const off = await createEndpoint(advertiser, "/off");
    await t.app.inject({
      method: "PATCH",
      url: `/api/webhooks/${off.id}`,
      headers: advertiser.headers,
      payload: { enabled: false },
    });
    await convert({ type: "signup" });
    await t.app.outbox.drain();
    expect(receiver.at("/only-relationships")).toEqual([]);
    expect(receiver.at("/off")).toEqual([]);
    for (const id of [other.id, off.id]) {
      await t.app.inject({ method: "DELETE", url: `/api/webhooks/${id}`, headers: advertiser.headers });
    }
  });
});

describe("conversion.refunded", () => {
  it("goes to both organizations of the refunded conversion, in the schema's order, and to no other endpoint", async () => {
    const received = await createEndpoint(advertiser, "/refunded-advertiser", ["conversion.refunded"]);
    const sent = await createEndpoint(sharer, "/refunded-sharer", ["conversion.refunded"]);
    const createdOnly = await createEndpoint(advertiser, "/created-only", ["conversion.created"]);
    const { id } = await convert({
      type: "purchase",
      value: 49.99,
      currency: "USD",
      eventId: "evt_refunded_1",
    });
    const refunded = await t.app.inject({
      method: "POST",
      url: "/api/marketing/refunds",
      headers: { "x-api-key": advertiserKey },
      payload: { conversionId: id, refundId: "refund-hooks-1", value: 9.99 },
    });
    expect(refunded.statusCode, refunded.body).toBe(201);
    await t.app.outbox.drain();

    const [toAdvertiser] = receiver.at("/refunded-advertiser");
    const [toSharer] = receiver.at("/refunded-sharer");
    if (!toAdvertiser || !toSharer) throw new Error("a message is missing");
    const data = {
      refundId: refunded.json().id,
      conversionId: id,
      value: 9.99,
      currency: "USD",
      reason: "refund",
      externalRefundId: "refund-hooks-1",
      refundedTotal: 9.99,
      netValue: 40,
    };
    expect(verify(received.secret, toAdvertiser)).toMatchObject({
      type: "conversion.refunded",
      data: { ...data, direction: "received", partner: { id: sharer.organizationId, name: "hooksharer" } },
    });
    expect(verify(sent.secret, toSharer)).toMatchObject({
      type: "conversion.refunded",
      data: {
        ...data,
        direction: "sent",
        partner: { id: advertiser.organizationId, name: "hookadvertiser" },
      },
    });
    const body = JSON.parse(toAdvertiser.body);
    expect(Object.keys(body.data)).toEqual(Object.keys(conversionRefundedMessageSchema.shape.data.shape));
    expect(conversionRefundedMessageSchema.parse(body)).toEqual(body);
    // Only conversion.created reached the endpoint that asked for that alone.
    expect(receiver.at("/created-only").map((hit) => JSON.parse(hit.body).type)).toEqual([
      "conversion.created",
    ]);
    const [delivery] = await deliveriesOf(advertiser, received.id);
    expect(delivery).toMatchObject({ eventType: "conversion.refunded", status: "succeeded" });
    // A repeated refundId is no new refund: no new message.
    const repeat = await t.app.inject({
      method: "POST",
      url: "/api/marketing/refunds",
      headers: { "x-api-key": advertiserKey },
      payload: { conversionId: id, refundId: "refund-hooks-1", value: 9.99 },
    });
    expect(repeat.statusCode).toBe(200);
    await t.app.outbox.drain();
    expect(receiver.at("/refunded-advertiser")).toHaveLength(1);
    for (const [org, endpoint] of [
      [advertiser, received],
      [sharer, sent],
      [advertiser, createdOnly],
    ] as const) {
      await t.app.inject({ method: "DELETE", url: `/api/webhooks/${endpoint.id}`, headers: org.headers });
    }
  });
});

describe("relationship.created", () => {
  it("tells the organization added as a Buddy, never one added as a competitor or one that blocks", async () => {
    const endpoint = await createEndpoint(outsider, "/relationships", ["relationship.created"]);
    const adder = await createOrganization(t, "hookadder");
    const relationship = await relate(t, adder, outsider.organizationId, "complement");
    await t.app.outbox.drain();
    const [hit] = receiver.at("/relationships");
    if (!hit) throw new Error("no relationship.created");
    expect(verify(endpoint.secret, hit)).toMatchObject({
      type: "relationship.created",
      data: {
        relationshipId: relationship.id,
        partner: { id: adder.organizationId, name: "hookadder", website: "https://hookadder.example" },
        type: "complement",
      },
    });
    expect(Object.keys(JSON.parse(hit.body).data)).toEqual(
      Object.keys(relationshipCreatedMessageSchema.shape.data.shape),
    );

    // A competitor is never told; nor is an organization that has the adder on its block list.
    const rival = await createOrganization(t, "hookrival");
    await relate(t, rival, outsider.organizationId, "competitor");
    const blocked = await createOrganization(t, "hookblocked");
    await relate(t, outsider, blocked.organizationId, "competitor");
    await relate(t, blocked, outsider.organizationId, "complement");
    await t.app.outbox.drain();
    expect(receiver.at("/relationships")).toHaveLength(1);

    // Turning the competitor into a Buddy is adding a Buddy.
    const rivalRow = (
      await t.app.inject({ url: "/api/relationships?type=competitor", headers: rival.headers })
    ).json();
    const toOutsider = (rivalRow as { id: string; targetOrganization?: { id: string } }[])[0];
    if (!toOutsider) throw new Error("no competitor row");
    await t.app.inject({
      method: "PATCH",
      url: `/api/relationships/${toOutsider.id}`,
      headers: rival.headers,
      payload: { type: "complement" },
    });
    await t.app.outbox.drain();
    expect(receiver.at("/relationships")).toHaveLength(2);
  });
});

describe("overlap.completed", () => {
  it("goes to both sides of a run, each seeing it from its own side, in the schema's order; under 5 the count is null", async () => {
    await sodium.ready;
    const starter = await createOrganization(t, "hookoverlapa");
    const responder = await createOrganization(t, "hookoverlapb");
    await relate(t, starter, responder.organizationId, "complement");
    const toStarter = await createEndpoint(starter, "/overlap-starter", ["overlap.completed"]);
    const toResponder = await createEndpoint(responder, "/overlap-responder", ["overlap.completed"]);
    const otherEvents = await createEndpoint(starter, "/overlap-other", ["conversion.created"]);
    const domains = (prefix: string, count: number) =>
      Array.from({ length: count }, (_, i) => `${prefix}${i}.com`);
    const common = domains("hook-shared-", 12);
    const starterList = [...common, ...domains("hook-a-", 48)];
    const responderList = [...domains("hook-b-", 45), ...common];
    const fewInCommon = [...common.slice(0, 3), ...domains("hook-p-", 50)];
    await declarePopulation(t, starter, "customers", starterList);
    await declarePopulation(t, responder, "customers", responderList);
    await declarePopulation(t, responder, "prospects", fewInCommon);

    const run = await runOverlap(
      t,
      sodium,
      { ...starter, domains: starterList },
      { ...responder, domains: responderList },
    );
    // A first attempt cut short on a busy machine is retried 50 ms later: drained until both came.
    await vi.waitFor(
      async () => {
        await t.app.outbox.drain();
        expect(receiver.at("/overlap-starter")).toHaveLength(1);
        expect(receiver.at("/overlap-responder")).toHaveLength(1);
      },
      { timeout: 10_000, interval: 100 },
    );
    const [forStarter] = receiver.at("/overlap-starter");
    const [forResponder] = receiver.at("/overlap-responder");
    if (!forStarter || !forResponder) throw new Error("a message is missing");
    const data = {
      runId: run.forA.id,
      mine: "customers",
      theirs: "customers",
      count: 12,
      occurredAt: run.forA.completedAt,
    };
    expect(verify(toStarter.secret, forStarter)).toMatchObject({
      type: "overlap.completed",
      data: {
        ...data,
        partner: { id: responder.organizationId, name: "hookoverlapb" },
      },
    });
    expect(verify(toResponder.secret, forResponder)).toMatchObject({
      type: "overlap.completed",
      data: { ...data, partner: { id: starter.organizationId, name: "hookoverlapa" } },
    });
    expect(() => verify(toStarter.secret, forResponder)).toThrow();
    const body = JSON.parse(forStarter.body);
    expect(Object.keys(body)).toEqual(["type", "timestamp", "data"]);
    expect(Object.keys(body.data)).toEqual(Object.keys(overlapCompletedMessageSchema.shape.data.shape));
    expect(overlapCompletedMessageSchema.parse(body)).toEqual(body);
    // The job holds ids only: the message is built from the receiver's side of the run when sent.
    const [queued] = await t.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.id, forResponder.headers["webhook-id"] as string));
    expect(queued?.payload).toEqual({
      endpointId: toResponder.id,
      type: "overlap.completed",
      runId: run.forA.id,
      organizationId: responder.organizationId,
    });

    // Three accounts in common: "fewer than 5", as on every screen.
    const small = await runOverlap(
      t,
      sodium,
      { ...starter, domains: starterList },
      { ...responder, domains: fewInCommon, population: "prospects" },
    );
    expect(small.localCount).toBe(3);
    await t.app.outbox.drain();
    const smallHit = receiver
      .at("/overlap-responder")
      .find((hit) => (hit.json as { data: { runId: string } }).data.runId === small.forA.id);
    if (!smallHit) throw new Error("no message for the small run");
    expect(verify(toResponder.secret, smallHit)).toMatchObject({
      data: { mine: "prospects", theirs: "customers", count: null },
    });
    expect(smallHit.body).toContain('"count":null');
    expect(receiver.at("/overlap-starter")).toHaveLength(2);
    expect(receiver.at("/overlap-other")).toEqual([]);
    for (const [org, endpoint] of [
      [starter, toStarter],
      [responder, toResponder],
      [starter, otherEvents],
    ] as const) {
      await t.app.inject({ method: "DELETE", url: `/api/webhooks/${endpoint.id}`, headers: org.headers });
    }
  });
});

describe("delivery", () => {
  it("retries a failing receiver with the same webhook-id, and lists every attempt", async () => {
    const endpoint = await createEndpoint(advertiser, "/flaky");
    let calls = 0;
    receiver.answerWith((hit, response) => {
      if (hit.path === "/flaky" && ++calls <= 2) response.writeHead(500).end("down for maintenance");
      else response.writeHead(200).end("ok");
    });
    try {
      const test = await t.app.inject({
        method: "POST",
        url: `/api/webhooks/${endpoint.id}/test`,
        headers: advertiser.headers,
      });
      expect(test.statusCode).toBe(202);
      await expect
        .poll(
          async () => {
            await t.app.outbox.drain();
            return receiver.at("/flaky").length;
          },
          { timeout: 10_000 },
        )
        .toBe(3);
    } finally {
      receiver.answerWith((_, response) => response.writeHead(200).end("ok"));
    }
    const ids = new Set(receiver.at("/flaky").map((hit) => hit.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    for (const hit of receiver.at("/flaky"))
      expect(verify(endpoint.secret, hit)).toMatchObject({ type: "webhook.test" });
    // Built again for each attempt, from the same job: the same bytes.
    expect(new Set(receiver.at("/flaky").map((hit) => hit.body)).size).toBe(1);
    const [first] = receiver.at("/flaky");
    expect(JSON.parse(first?.body ?? "")).toEqual({
      type: "webhook.test",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: {
        message: "This is a test event from Buddy. Your endpoint received it.",
        endpointId: endpoint.id,
        occurredAt: JSON.parse(first?.body ?? "").timestamp,
      },
    });
    expect(Object.keys(JSON.parse(first?.body ?? "").data)).toEqual(
      Object.keys(webhookTestMessageSchema.shape.data.shape),
    );
    const deliveries = await deliveriesOf(advertiser, endpoint.id);
    expect(
      deliveries.map((d: { attempt: number; status: string; responseStatus: number }) => [
        d.attempt,
        d.status,
        d.responseStatus,
      ]),
    ).toEqual([
      [3, "succeeded", 200],
      [2, "failed", 500],
      [1, "failed", 500],
    ]);
    expect(deliveries[1].response).toBe("down for maintenance");
    const [job] = await t.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.id, [...ids][0] as string));
    expect(job).toMatchObject({ status: "done", attempts: 3 });
  });

  it("gives up after the last retry, and shows the message pending meanwhile", async () => {
    const endpoint = await createEndpoint(advertiser, "/dead");
    receiver.answerWith((hit, response) => response.writeHead(hit.path === "/dead" ? 503 : 200).end());
    try {
      await t.app.inject({
        method: "POST",
        url: `/api/webhooks/${endpoint.id}/test`,
        headers: advertiser.headers,
      });
      await expect
        .poll(
          async () => {
            await t.app.outbox.drain();
            return receiver.at("/dead").length;
          },
          { timeout: 10_000 },
        )
        .toBe(3);
    } finally {
      receiver.answerWith((_, response) => response.writeHead(200).end("ok"));
    }
    const [job] = await t.database.db.select().from(jobs).where(eq(jobs.partitionKey, endpoint.id));
    expect(job).toMatchObject({ status: "failed", attempts: 3, lastError: "HTTP 503" });

    // A message not yet attempted is listed as pending, above the attempts.
    await t.database.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() + 60 * 60_000) })
      .where(eq(jobs.partitionKey, endpoint.id));
    await t.database.db.update(jobs).set({ status: "pending" }).where(eq(jobs.partitionKey, endpoint.id));
    const [first] = await deliveriesOf(advertiser, endpoint.id);
    expect(first).toMatchObject({
      status: "pending",
      attempt: 4,
      responseStatus: null,
      eventType: "webhook.test",
    });
  });

  it("signs with both secrets for a day after a rotation", async () => {
    const endpoint = await createEndpoint(advertiser, "/rotated");
    const rotated = await t.app.inject({
      method: "POST",
      url: `/api/webhooks/${endpoint.id}/rotate-secret`,
      headers: advertiser.headers,
    });
    expect(rotated.statusCode).toBe(200);
    const { secret } = rotated.json();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(endpoint.secret);
    await t.app.inject({
      method: "POST",
      url: `/api/webhooks/${endpoint.id}/test`,
      headers: advertiser.headers,
    });
    await t.app.outbox.drain();
    const [hit] = receiver.at("/rotated");
    if (!hit) throw new Error("not delivered");
    expect(String(hit.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verify(secret, hit)).toMatchObject({ type: "webhook.test" });
    expect(verify(endpoint.secret, hit)).toMatchObject({ type: "webhook.test" });

    // A day later the old one no longer signs.
    clockOffsetMs = 24 * 60 * 60_000 + 1_000;
    try {
      await t.app.inject({
        method: "POST",
        url: `/api/webhooks/${endpoint.id}/test`,
        headers: advertiser.headers,
      });
      await t.app.outbox.drain();
    } finally {
      clockOffsetMs = 0;
    }
    const later = receiver.at("/rotated")[1];
    if (!later) throw new Error("not delivered");
    expect(String(later.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(() => verify(endpoint.secret, later)).toThrow();
  });

  it("disables an endpoint failing for 5 days and mails its admins", async () => {
    const endpoint = await createEndpoint(advertiser, "/failing");
    receiver.answerWith((hit, response) => response.writeHead(hit.path === "/failing" ? 500 : 200).end());
    const sendTest = async () => {
      await t.app.inject({
        method: "POST",
        url: `/api/webhooks/${endpoint.id}/test`,
        headers: advertiser.headers,
      });
      await t.app.outbox.drain();
    };
    try {
      await sendTest();
      const [failing] = (await t.app.inject({ url: "/api/webhooks", headers: advertiser.headers }))
        .json()
        .filter((row: Created) => row.id === endpoint.id);
      expect(failing).toMatchObject({ enabled: true, disabledReason: null });
      expect(failing.failingSince).not.toBeNull();

      clockOffsetMs = 5 * 24 * 60 * 60_000 + 1_000;
      await sendTest();
    } finally {
      clockOffsetMs = 0;
      receiver.answerWith((_, response) => response.writeHead(200).end("ok"));
    }
    const [disabled] = (await t.app.inject({ url: "/api/webhooks", headers: advertiser.headers }))
      .json()
      .filter((row: Created) => row.id === endpoint.id);
    expect(disabled).toMatchObject({ enabled: false, disabledReason: WEBHOOK_MESSAGES.disabled });
    const mail = await t.mail.waitFor(
      (m) =>
        m.to === advertiser.email && m.subject.includes("webhook endpoint") && m.subject.includes("disabled"),
    );
    expect(mail.text).toContain(receiver.url("/failing"));

    // Events no longer go there (once the tests' own retries are over); enabling it again starts afresh.
    await expect
      .poll(async () => {
        await t.app.outbox.drain();
        const waiting = await t.database.db.select().from(jobs).where(eq(jobs.partitionKey, endpoint.id));
        return waiting.filter((job) => job.status === "pending").length;
      })
      .toBe(0);
    const before = receiver.at("/failing").length;
    await convert({ type: "signup" });
    await t.app.outbox.drain();
    expect(receiver.at("/failing")).toHaveLength(before);
    const enabled = await t.app.inject({
      method: "PATCH",
      url: `/api/webhooks/${endpoint.id}`,
      headers: advertiser.headers,
      payload: { enabled: true },
    });
    expect(enabled.json()).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it("clears the failing streak on a success", async () => {
    const endpoint = await createEndpoint(advertiser, "/recovers");
    receiver.answerWith((hit, response) => response.writeHead(hit.path === "/recovers" ? 500 : 200).end());
    try {
      await t.app.inject({
        method: "POST",
        url: `/api/webhooks/${endpoint.id}/test`,
        headers: advertiser.headers,
      });
      await t.app.outbox.drain();
    } finally {
      receiver.answerWith((_, response) => response.writeHead(200).end("ok"));
    }
    await expect
      .poll(
        async () => {
          await t.app.outbox.drain();
          const [row] = await t.database.db
            .select()
            .from(webhookEndpoints)
            .where(eq(webhookEndpoints.id, endpoint.id));
          return row?.failingSince ?? null;
        },
        { timeout: 10_000 },
      )
      .toBeNull();
  });

  it("still delivers a message queued by an older release, built in SQL, in the documented order", async () => {
    const endpoint = await createEndpoint(advertiser, "/legacy");
    const id = "msg_legacy0123456789abcdef0123456789";
    // As the older release queued it: the message built, its data in jsonb's key order.
    const data = {
      type: "signup",
      value: 49.99,
      clickId: "click-legacy",
      eventId: null,
      partner: { id: sharer.organizationId, name: "hooksharer" },
      currency: "USD",
      direction: "received",
      customerId: null,
      occurredAt: "2026-03-02T14:05:09.398Z",
      collateralId: adId,
      conversionId: "conversion-legacy",
    };
    await t.database.db.insert(jobs).values({
      id,
      kind: "webhook",
      partitionKey: endpoint.id,
      payload: {
        endpointId: endpoint.id,
        message: { type: "conversion.created", timestamp: "2026-03-02T14:05:09.412Z", data },
      },
    });
    await t.app.outbox.drain();
    const [hit] = receiver.at("/legacy");
    if (!hit) throw new Error("the queued message was not delivered");
    expect(hit.headers["webhook-id"]).toBe(id);
    const body = verify(endpoint.secret, hit);
    expect(body).toEqual({ type: "conversion.created", timestamp: "2026-03-02T14:05:09.412Z", data });
    expect(Object.keys(JSON.parse(hit.body).data)).toEqual(
      Object.keys(conversionCreatedMessageSchema.shape.data.shape),
    );

    // A payload that is neither shape, or a message its schema refuses, fails without a request.
    await t.database.db.insert(jobs).values([
      {
        id: "msg_legacy_bad_payload",
        kind: "webhook",
        partitionKey: endpoint.id,
        payload: { nothing: true },
      },
      {
        id: "msg_legacy_bad_message",
        kind: "webhook",
        partitionKey: endpoint.id,
        payload: {
          endpointId: endpoint.id,
          message: { type: "webhook.test", timestamp: "", data: { message: "hi" } },
        },
      },
    ]);
    await t.app.outbox.drain();
    expect(receiver.at("/legacy")).toHaveLength(1);
    const failed = await t.database.db.select().from(jobs).where(eq(jobs.partitionKey, endpoint.id));
    expect(
      failed
        .filter((job) => job.id !== id)
        .map((job) => [job.id, job.status])
        .sort(),
    ).toEqual([
      ["msg_legacy_bad_message", "failed"],
      ["msg_legacy_bad_payload", "failed"],
    ]);
    await t.app.inject({
      method: "DELETE",
      url: `/api/webhooks/${endpoint.id}`,
      headers: advertiser.headers,
    });
  });

  it("drops the messages of a deleted endpoint", async () => {
    const endpoint = await createEndpoint(advertiser, "/deleted");
    await t.database.db.insert(jobs).values({
      kind: "webhook",
      partitionKey: endpoint.id,
      payload: { endpointId: endpoint.id, message: { type: "webhook.test", timestamp: "", data: {} } },
      runAt: new Date(Date.now() + 60 * 60_000),
    });
    await t.app.inject({
      method: "DELETE",
      url: `/api/webhooks/${endpoint.id}`,
      headers: advertiser.headers,
    });
    const left = await t.database.db.select().from(jobs).where(eq(jobs.partitionKey, endpoint.id));
    expect(left).toEqual([]);
  });
});

describe("test events", () => {
  it("are limited per organization (webhookTest): 10 in 15 minutes, then 429 with Retry-After", async () => {
    const busy = await createOrganization(t, "hookbusy");
    const endpoint = await createEndpoint(busy, "/busy");
    const send = () =>
      t.app.inject({ method: "POST", url: `/api/webhooks/${endpoint.id}/test`, headers: busy.headers });
    for (let i = 0; i < 10; i++) expect((await send()).statusCode).toBe(202);
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: expect.any(String) });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // It is the organization's allowance, not the client's: another client of it is refused too.
    const elsewhere = await t.app.inject({
      method: "POST",
      url: `/api/webhooks/${endpoint.id}/test`,
      headers: busy.headers,
      remoteAddress: "198.51.100.77",
    });
    expect(elsewhere.statusCode).toBe(429);
    // Another organization's allowance is its own.
    const other = await createEndpoint(advertiser, "/not-busy");
    const allowed = await t.app.inject({
      method: "POST",
      url: `/api/webhooks/${other.id}/test`,
      headers: advertiser.headers,
    });
    expect(allowed.statusCode).toBe(202);
  });
});
