import { WEBHOOK_MESSAGES, type WebhookDelivery, type WebhookEndpoint } from "@shared/webhooks";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, webhookAttempts } from "../../db/schema";
import { addMember, createOrganization, createTestApp, type TestApp } from "../../testing/app";
import {
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../../testing/webhook-receiver";

/**
 * Issue 37, webhook health: an endpoint failing from its first failed attempt, healthy again after
 * a success; a test event's outcome; the body each attempt sent; Resend, the same message again.
 * One retry an hour later, so a failed message stays pending for as long as a test looks at it.
 */
let t: TestApp;
let receiver: WebhookReceiver;
let org: Awaited<ReturnType<typeof createOrganization>>;
let outsider: Awaited<ReturnType<typeof createOrganization>>;
/** Resend's own organization: each test event costs its organization a point of webhookTest. */
let resender: Awaited<ReturnType<typeof createOrganization>>;

type Org = typeof org;
type Created = WebhookEndpoint & { secret: string };

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_DELAYS: "1h" } });
  org = await createOrganization(t, "healthadmin");
  outsider = await createOrganization(t, "healthoutsider");
  resender = await createOrganization(t, "healthresender");
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

/** Answers 500 at the paths given, 200 "ok" elsewhere. */
function failAt(...paths: string[]) {
  receiver.answerWith((hit, response) => {
    if (paths.includes(hit.path)) response.writeHead(500).end("database is down");
    else response.writeHead(200).end("ok");
  });
}

async function createEndpoint(owner: Org, path: string): Promise<Created> {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/webhooks",
    headers: owner.headers,
    payload: { url: receiver.url(path), events: ["conversion.created"] },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function endpointOf(owner: Org, id: string): Promise<WebhookEndpoint | undefined> {
  const list = await t.app.inject({ url: "/api/webhooks", headers: owner.headers });
  return (list.json() as WebhookEndpoint[]).find((endpoint) => endpoint.id === id);
}

async function deliveriesOf(owner: Org, id: string, messageId?: string): Promise<WebhookDelivery[]> {
  const query = messageId ? `?messageId=${encodeURIComponent(messageId)}` : "";
  const response = await t.app.inject({
    url: `/api/webhooks/${id}/deliveries${query}`,
    headers: owner.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function sendTest(owner: Org, id: string) {
  const response = await t.app.inject({
    method: "POST",
    url: `/api/webhooks/${id}/test`,
    headers: owner.headers,
  });
  expect(response.statusCode, response.body).toBe(202);
  await t.app.outbox.drain();
  return response.json() as { message: string; messageId: string; attempt: number };
}

const resend = (owner: { headers: Record<string, string> }, id: string, deliveryId: string) =>
  t.app.inject({
    method: "POST",
    url: `/api/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
    headers: owner.headers,
  });

function verify(secret: string, hit: { body: string; headers: Record<string, unknown> }) {
  return new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>);
}

const made = (deliveries: WebhookDelivery[]) => deliveries.filter((d) => d.status !== "pending");

describe("an endpoint's health", () => {
  it("is failing from its first failed attempt while retries wait, and healthy again after a success", async () => {
    const endpoint = await createEndpoint(org, "/health");
    expect(await endpointOf(org, endpoint.id)).toMatchObject({ enabled: true, failingSince: null });
    failAt("/health");
    const failed = await sendTest(org, endpoint.id);

    const failing = await endpointOf(org, endpoint.id);
    expect(failing).toMatchObject({ enabled: true, disabledReason: null });
    const [attempt] = made(await deliveriesOf(org, endpoint.id, failed.messageId));
    expect(attempt).toMatchObject({ attempt: 1, status: "failed", responseStatus: 500 });
    // Since that very attempt, and still enabled: its retry waits an hour.
    expect(failing?.failingSince).toBe(attempt?.createdAt);
    const [retry] = await deliveriesOf(org, endpoint.id, failed.messageId);
    expect(retry).toMatchObject({ status: "pending", attempt: 2, request: null });

    // A second failure keeps the first one's time.
    await sendTest(org, endpoint.id);
    expect((await endpointOf(org, endpoint.id))?.failingSince).toBe(attempt?.createdAt);

    failAt();
    await sendTest(org, endpoint.id);
    expect(await endpointOf(org, endpoint.id)).toMatchObject({ enabled: true, failingSince: null });
  });
});

describe("a test event", () => {
  it("answers its message id, and its outcome is listed under it once attempted: delivered with its status", async () => {
    failAt();
    const endpoint = await createEndpoint(org, "/test-ok");
    const queued = await sendTest(org, endpoint.id);
    expect(queued).toEqual({
      message: WEBHOOK_MESSAGES.testQueued,
      messageId: expect.stringMatching(/^msg_/),
      attempt: 1,
    });
    const deliveries = await deliveriesOf(org, endpoint.id, queued.messageId);
    expect(deliveries).toEqual([
      expect.objectContaining({
        messageId: queued.messageId,
        eventType: "webhook.test",
        attempt: 1,
        status: "succeeded",
        responseStatus: 200,
        response: "ok",
      }),
    ]);
  });

  it("fails with the status and the response, or why there was none", async () => {
    failAt("/test-500");
    const endpoint = await createEndpoint(org, "/test-500");
    const queued = await sendTest(org, endpoint.id);
    const [attempt] = made(await deliveriesOf(org, endpoint.id, queued.messageId));
    expect(attempt).toMatchObject({ status: "failed", responseStatus: 500, response: "database is down" });

    // Nothing listens there: no status, the reason instead.
    const closed = await startWebhookReceiver();
    const gone = closed.url("/nobody");
    await closed.close();
    const created = await t.app.inject({
      method: "POST",
      url: "/api/webhooks",
      headers: org.headers,
      payload: { url: gone, events: ["conversion.created"] },
    });
    const nobody = created.json() as Created;
    const unanswered = await sendTest(org, nobody.id);
    const [none] = made(await deliveriesOf(org, nobody.id, unanswered.messageId));
    expect(none).toMatchObject({ status: "failed", responseStatus: null, response: expect.any(String) });
    expect(none?.response).not.toBe("");
  });

  it("lists only that message's attempts when asked by message id, and refuses a bad one with 400", async () => {
    const endpoint = await createEndpoint(org, "/filtered");
    failAt();
    const first = await sendTest(org, endpoint.id);
    await sendTest(org, endpoint.id);
    expect(await deliveriesOf(org, endpoint.id)).toHaveLength(2);
    const only = await deliveriesOf(org, endpoint.id, first.messageId);
    expect(only.map((d) => d.messageId)).toEqual([first.messageId]);
    expect(await deliveriesOf(org, endpoint.id, "msg_unknown")).toEqual([]);
    for (const bad of ["%00", "x".repeat(101)]) {
      const response = await t.app.inject({
        url: `/api/webhooks/${endpoint.id}/deliveries?messageId=${bad}`,
        headers: org.headers,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: expect.any(String) });
    }
  });
});

describe("an attempt's payload", () => {
  it("is the body sent, as signed: it verifies with the headers the receiver got", async () => {
    failAt();
    const endpoint = await createEndpoint(org, "/payload");
    const queued = await sendTest(org, endpoint.id);
    const [hit] = receiver.at("/payload");
    if (!hit) throw new Error("not delivered");
    const [attempt] = await deliveriesOf(org, endpoint.id, queued.messageId);
    expect(attempt?.request).toBe(hit.body);
    expect(verify(endpoint.secret, { body: attempt?.request ?? "", headers: hit.headers })).toMatchObject({
      type: "webhook.test",
      data: { endpointId: endpoint.id },
    });
    const [row] = await t.database.db
      .select({ requestBody: webhookAttempts.requestBody })
      .from(webhookAttempts)
      .where(eq(webhookAttempts.id, attempt?.id ?? ""));
    expect(row?.requestBody).toBe(hit.body);
  });
});

describe("Resend", () => {
  it("sends a delivered message again: the same webhook-id and body, signed anew, listed as its next attempt", async () => {
    failAt();
    const endpoint = await createEndpoint(resender, "/resend");
    const queued = await sendTest(resender, endpoint.id);
    const [attempt] = await deliveriesOf(resender, endpoint.id, queued.messageId);
    if (!attempt) throw new Error("no attempt");

    const response = await resend(resender, endpoint.id, attempt.id);
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toEqual({
      message: WEBHOOK_MESSAGES.resendQueued,
      messageId: queued.messageId,
      attempt: 2,
    });
    await t.app.outbox.drain();

    const hits = receiver.at("/resend");
    expect(hits).toHaveLength(2);
    const [original, again] = hits as [ReceivedWebhook, ReceivedWebhook];
    expect(again.headers["webhook-id"]).toBe(queued.messageId);
    expect(again.headers["webhook-id"]).toBe(original.headers["webhook-id"]);
    expect(again.body).toBe(original.body);
    expect(verify(endpoint.secret, again)).toEqual(JSON.parse(original.body));

    const deliveries = await deliveriesOf(resender, endpoint.id, queued.messageId);
    expect(deliveries.map((d) => [d.attempt, d.status, d.messageId])).toEqual([
      [2, "succeeded", queued.messageId],
      [1, "succeeded", queued.messageId],
    ]);
    expect(deliveries[0]?.request).toBe(original.body);

    // In the security log, with who did it.
    const log = await t.app.inject({ url: "/api/security-log", headers: resender.headers });
    const entry = (log.json().entries as { action: string; target: string; actorEmail: string }[]).find(
      (e) => e.action === "webhook_message_resent",
    );
    expect(entry).toMatchObject({
      actorEmail: resender.email,
      target: `${queued.messageId} → ${endpoint.url}`,
    });
  });

  it("makes a message waiting for its retry due now, rather than queueing a second", async () => {
    failAt("/waiting");
    const endpoint = await createEndpoint(resender, "/waiting");
    const queued = await sendTest(resender, endpoint.id);
    const [retry, failed] = await deliveriesOf(resender, endpoint.id, queued.messageId);
    expect(retry).toMatchObject({ status: "pending", attempt: 2 });
    if (!failed) throw new Error("no attempt");

    failAt();
    const response = await resend(resender, endpoint.id, failed.id);
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toMatchObject({ messageId: queued.messageId, attempt: 2 });
    const waiting = await t.database.db.select().from(jobs).where(eq(jobs.partitionKey, endpoint.id));
    expect(waiting).toHaveLength(1);
    await t.app.outbox.drain();

    const hits = receiver.at("/waiting");
    expect(hits.map((hit) => hit.headers["webhook-id"])).toEqual([queued.messageId, queued.messageId]);
    expect(verify(endpoint.secret, hits[1] as ReceivedWebhook)).toMatchObject({ type: "webhook.test" });
    const deliveries = await deliveriesOf(resender, endpoint.id, queued.messageId);
    expect(deliveries.map((d) => [d.attempt, d.status])).toEqual([
      [2, "succeeded"],
      [1, "failed"],
    ]);
    // Healthy again.
    expect((await endpointOf(resender, endpoint.id))?.failingSince).toBeNull();
  });

  it("is one attempt: a resend that fails is not retried, and the endpoint is failing", async () => {
    failAt();
    const endpoint = await createEndpoint(resender, "/once");
    const queued = await sendTest(resender, endpoint.id);
    const [attempt] = await deliveriesOf(resender, endpoint.id, queued.messageId);
    failAt("/once");
    expect((await resend(resender, endpoint.id, attempt?.id ?? "")).statusCode).toBe(202);
    await t.app.outbox.drain();
    const deliveries = await deliveriesOf(resender, endpoint.id, queued.messageId);
    expect(deliveries.map((d) => [d.attempt, d.status, d.responseStatus])).toEqual([
      [2, "failed", 500],
      [1, "succeeded", 200],
    ]);
    const resent = (await t.database.db.select().from(jobs).where(eq(jobs.partitionKey, endpoint.id))).find(
      (job) => job.id !== queued.messageId,
    );
    expect(resent).toMatchObject({ status: "failed", attempts: 1, lastError: "HTTP 500" });
    expect((await endpointOf(resender, endpoint.id))?.failingSince).not.toBeNull();
    failAt();
  });

  it("is refused to a disabled endpoint (409), and for an attempt whose body was not kept (409)", async () => {
    failAt();
    const endpoint = await createEndpoint(resender, "/refused");
    const queued = await sendTest(resender, endpoint.id);
    const [attempt] = await deliveriesOf(resender, endpoint.id, queued.messageId);
    await t.app.inject({
      method: "PATCH",
      url: `/api/webhooks/${endpoint.id}`,
      headers: resender.headers,
      payload: { enabled: false },
    });
    const disabled = await resend(resender, endpoint.id, attempt?.id ?? "");
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json()).toEqual({ message: WEBHOOK_MESSAGES.resendDisabled });
    await t.app.inject({
      method: "PATCH",
      url: `/api/webhooks/${endpoint.id}`,
      headers: resender.headers,
      payload: { enabled: true },
    });

    // As an attempt recorded before bodies were kept.
    const [old] = await t.database.db
      .insert(webhookAttempts)
      .values({
        endpointId: endpoint.id,
        messageId: "msg_before_bodies",
        eventType: "webhook.test",
        attempt: 1,
        status: "failed",
        responseStatus: 500,
        durationMs: 3,
      })
      .returning({ id: webhookAttempts.id });
    const bodiless = await resend(resender, endpoint.id, old?.id ?? "");
    expect(bodiless.statusCode).toBe(409);
    expect(bodiless.json()).toEqual({ message: WEBHOOK_MESSAGES.resendNoBody });
    const queuedJobs = await t.database.db.select().from(jobs).where(eq(jobs.partitionKey, endpoint.id));
    expect(queuedJobs.filter((job) => job.status === "pending")).toEqual([]);
  });

  it("is for admins (403), of their own endpoints' attempts (404), with ids that are ids (400)", async () => {
    failAt();
    const endpoint = await createEndpoint(resender, "/guarded");
    const queued = await sendTest(resender, endpoint.id);
    const [attempt] = await deliveriesOf(resender, endpoint.id, queued.messageId);
    if (!attempt) throw new Error("no attempt");
    const other = await createEndpoint(resender, "/guarded-other");
    const theirs = await createEndpoint(outsider, "/theirs");

    const member = await addMember(t, resender.organizationId);
    const forbidden = await resend(member, endpoint.id, attempt.id);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ message: expect.any(String) });

    const notFound: [Org, string, string, string][] = [
      [outsider, endpoint.id, attempt.id, WEBHOOK_MESSAGES.notFound],
      [outsider, theirs.id, attempt.id, WEBHOOK_MESSAGES.deliveryNotFound],
      [resender, other.id, attempt.id, WEBHOOK_MESSAGES.deliveryNotFound],
      [resender, endpoint.id, "no-such-attempt", WEBHOOK_MESSAGES.deliveryNotFound],
      [resender, "no-such-endpoint", attempt.id, WEBHOOK_MESSAGES.notFound],
      // A message waiting for its first attempt has no attempt to resend.
      [resender, endpoint.id, `${queued.messageId}:1`, WEBHOOK_MESSAGES.deliveryNotFound],
    ];
    for (const [owner, id, deliveryId, message] of notFound) {
      const response = await resend(owner, id, deliveryId);
      expect(response.statusCode, `${id} ${deliveryId}`).toBe(404);
      expect(response.json()).toEqual({ message });
    }

    // Not text (a NUL) or too long for an id: refused before anything is looked up. A path
    // parameter over 100 characters is Fastify's 414 (maxParamLength), with the same body.
    for (const [id, deliveryId, status] of [
      [endpoint.id, "a\u0000b", 400],
      ["a\u0000b", attempt.id, 400],
      [endpoint.id, "x".repeat(101), 414],
      ["x".repeat(101), attempt.id, 414],
    ] as const) {
      const response = await resend(resender, id, deliveryId);
      expect(response.statusCode, `${id} ${deliveryId}`).toBe(status);
      expect(response.json()).toEqual({ message: expect.any(String) });
    }
    await t.app.outbox.drain();
    expect(receiver.at("/guarded")).toHaveLength(1);
  });

  it("is limited per organization (webhookResend): 30 in 15 minutes, then 429 with Retry-After", async () => {
    const busy = await createOrganization(t, "healthbusy");
    failAt();
    const endpoint = await createEndpoint(busy, "/busy");
    const queued = await sendTest(busy, endpoint.id);
    const [attempt] = await deliveriesOf(busy, endpoint.id, queued.messageId);
    for (let i = 0; i < 30; i++)
      expect((await resend(busy, endpoint.id, attempt?.id ?? "")).statusCode).toBe(202);
    const refused = await resend(busy, endpoint.id, attempt?.id ?? "");
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: expect.any(String) });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // Another organization's allowance is its own.
    const mine = await createEndpoint(resender, "/not-busy");
    const sent = await sendTest(resender, mine.id);
    const [own] = await deliveriesOf(resender, mine.id, sent.messageId);
    expect((await resend(resender, mine.id, own?.id ?? "")).statusCode).toBe(202);
    await t.app.outbox.drain();
  });
});
