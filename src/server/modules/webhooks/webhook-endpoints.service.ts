import {
  type CreateWebhookInput,
  maskWebhookSecret,
  type QueuedWebhookMessage,
  type UpdateWebhookInput,
  WEBHOOK_MESSAGE_TYPES,
  WEBHOOK_MESSAGES,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
} from "@shared/webhooks";
import { and, count, eq, max, sql } from "drizzle-orm";
import { type Db, type DbOrTx, rowsOf } from "../../db/client";
import { jobs, webhookAttempts, webhookEndpoints } from "../../db/schema";
import { badRequest, conflict, notFound } from "../../errors";
import { outboundUrlProblem } from "../../lib/safe-fetch";
import type { SecretSealer } from "../../lib/sealed-secrets";
import { recordSecurityEvent, type SecurityActor } from "../security-log/security-log.service";
import { queueResend, queueTestMessage, resentBody } from "./webhook-events";
import { generateWebhookSecret, PREVIOUS_SECRET_MS, sealedSecret } from "./webhook-secrets";

/** Enough for every tool a team uses; a bound on what one organization makes Buddy send. */
export const MAX_ENDPOINTS = 20;
const DELIVERIES_LISTED = 100;

export type EndpointContext = { db: Db; sealer: SecretSealer; allowPrivate: boolean };

type EndpointRow = typeof webhookEndpoints.$inferSelect;

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEvent[],
    enabled: row.enabled,
    secret: maskWebhookSecret(row.secretHint),
    disabledReason: row.disabledReason === "failing" ? WEBHOOK_MESSAGES.disabled : null,
    failingSince: row.failingSince?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * CONTRACT §9: a literal private or loopback address is refused when the endpoint is saved (names
 * are judged at each delivery, resolved then), and so is a port other than the scheme's own.
 */
function checkUrl(url: string, allowPrivate: boolean): string {
  const problem = outboundUrlProblem(url, { allowPrivate });
  if (!problem) return url;
  if (problem.reason === "blocked_address") {
    throw badRequest(
      problem.message.startsWith("Port") ? WEBHOOK_MESSAGES.port : WEBHOOK_MESSAGES.privateAddress,
    );
  }
  throw badRequest(WEBHOOK_MESSAGES.url);
}

/** CONTRACT §3: what an admin did to an endpoint, in the security log, named by its URL. */
function logEndpointChange(
  tx: DbOrTx,
  actor: SecurityActor,
  organizationId: string,
  action: "webhook_created" | "webhook_updated" | "webhook_secret_rotated" | "webhook_deleted",
  url: string,
) {
  return recordSecurityEvent(tx, actor, { action, organizationId, target: url });
}

async function findEndpoint(db: DbOrTx, organizationId: string, id: string): Promise<EndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, organizationId)));
  if (!row) throw notFound(WEBHOOK_MESSAGES.notFound);
  return row;
}

export async function listEndpoints(db: Db, organizationId: string): Promise<WebhookEndpoint[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.organizationId, organizationId))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
  return rows.map(toEndpoint);
}

/** The one answer with the whole secret. */
export async function createEndpoint(
  { db, sealer, allowPrivate }: EndpointContext,
  organizationId: string,
  input: { url: string; events: WebhookEvent[] } & Pick<CreateWebhookInput, "url">,
  actor: SecurityActor,
): Promise<WebhookEndpoint & { secret: string }> {
  const url = checkUrl(input.url, allowPrivate);
  const secret = generateWebhookSecret();
  const row = await db.transaction(async (tx) => {
    // Serialises the organization's creations, so the cap holds under concurrent requests.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext('webhook_endpoints'), hashtext(${organizationId}))`,
    );
    const [existing] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.organizationId, organizationId));
    if ((existing?.n ?? 0) >= MAX_ENDPOINTS) {
      throw badRequest(`An organization has at most ${MAX_ENDPOINTS} webhook endpoints`);
    }
    const [inserted] = await tx
      .insert(webhookEndpoints)
      .values({ organizationId, url, events: input.events, ...sealedSecret(sealer, secret) })
      .returning();
    if (!inserted) throw new Error("webhook endpoint insert returned nothing");
    await logEndpointChange(tx, actor, organizationId, "webhook_created", inserted.url);
    return inserted;
  });
  return { ...toEndpoint(row), secret };
}

/** A changed URL is logged as the old one and the new: where the messages went, and go now. */
export async function updateEndpoint(
  { db, allowPrivate }: EndpointContext,
  organizationId: string,
  id: string,
  input: { url?: string; events?: WebhookEvent[]; enabled?: boolean } & Pick<UpdateWebhookInput, "url">,
  actor: SecurityActor,
): Promise<WebhookEndpoint> {
  const url = input.url === undefined ? undefined : checkUrl(input.url, allowPrivate);
  const mine = and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, organizationId));
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ url: webhookEndpoints.url })
      .from(webhookEndpoints)
      .where(mine)
      .for("update");
    if (!before) throw notFound(WEBHOOK_MESSAGES.notFound);
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        ...(url !== undefined ? { url } : {}),
        ...(input.events !== undefined ? { events: input.events } : {}),
        // Enabled again, or disabled by an admin: a fresh start, and no reason of Buddy's shown.
        ...(input.enabled !== undefined
          ? { enabled: input.enabled, failingSince: null, disabledReason: null }
          : {}),
        updatedAt: new Date(),
      })
      .where(mine)
      .returning();
    if (!row) throw notFound(WEBHOOK_MESSAGES.notFound);
    const target = before.url === row.url ? row.url : `${before.url} → ${row.url}`;
    await logEndpointChange(tx, actor, organizationId, "webhook_updated", target);
    return toEndpoint(row);
  });
}

/** Its messages still waiting go with it. */
export async function deleteEndpoint(
  db: Db,
  organizationId: string,
  id: string,
  actor: SecurityActor,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, organizationId)))
      .returning({ url: webhookEndpoints.url });
    if (!row) throw notFound(WEBHOOK_MESSAGES.notFound);
    await logEndpointChange(tx, actor, organizationId, "webhook_deleted", row.url);
    await tx
      .delete(jobs)
      .where(and(eq(jobs.kind, "webhook"), eq(jobs.partitionKey, id), eq(jobs.status, "pending")));
  });
}

/**
 * A new secret, shown once; the one it replaces keeps signing beside it for PREVIOUS_SECRET_MS so
 * receivers can switch without losing a message. A second rotation within that day drops the
 * oldest: only the secret in use until now is kept.
 */
export async function rotateSecret(
  { db, sealer }: EndpointContext,
  organizationId: string,
  id: string,
  actor: SecurityActor,
  now = new Date(),
): Promise<{ secret: string }> {
  const secret = generateWebhookSecret();
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        previousSecretSealed: sql`${webhookEndpoints.secretSealed}`,
        previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_MS),
        ...sealedSecret(sealer, secret),
        updatedAt: now,
      })
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, organizationId)))
      .returning({ url: webhookEndpoints.url });
    if (!row) throw notFound(WEBHOOK_MESSAGES.notFound);
    await logEndpointChange(tx, actor, organizationId, "webhook_secret_rotated", row.url);
  });
  return { secret };
}

/** A test message's first attempt is its attempt 1. */
export async function sendTestMessage(
  db: Db,
  organizationId: string,
  id: string,
): Promise<QueuedWebhookMessage> {
  await findEndpoint(db, organizationId, id);
  return { message: WEBHOOK_MESSAGES.testQueued, messageId: await queueTestMessage(db, id), attempt: 1 };
}

/**
 * Resend (CONTRACT §9, issue 37): a new attempt of the message an attempt belongs to, with the same
 * `webhook-id` and the body that attempt sent, signed anew. Only to an enabled endpoint: a disabled
 * one gets nothing from Buddy, and the admin enables it first (409). A message still waiting for a
 * retry, or for an earlier resend, has that attempt made now rather than a second one queued beside
 * it. A resend is one attempt, without retries. Logged in the security log: it makes Buddy POST to
 * the endpoint again.
 */
export async function resendAttempt(
  db: Db,
  organizationId: string,
  endpointId: string,
  attemptId: string,
  actor: SecurityActor,
): Promise<QueuedWebhookMessage> {
  return db.transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, organizationId, endpointId);
    const [attempt] = await tx
      .select({
        messageId: webhookAttempts.messageId,
        eventType: webhookAttempts.eventType,
        requestBody: webhookAttempts.requestBody,
      })
      .from(webhookAttempts)
      .where(and(eq(webhookAttempts.id, attemptId), eq(webhookAttempts.endpointId, endpointId)));
    if (!attempt) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
    if (!endpoint.enabled) throw conflict(WEBHOOK_MESSAGES.resendDisabled);
    const { messageId } = attempt;
    // One resend of a message at a time, whichever instance answers: never two queued at once.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('webhook_resend'), hashtext(${messageId}))`);
    const [waiting] = rowsOf<{ next: number }>(
      await tx.execute(sql`
        update jobs set run_at = least(run_at, now())
        where kind = 'webhook' and partition_key = ${endpointId} and status = 'pending'
          and (id = ${messageId} or payload -> 'resend' ->> 'messageId' = ${messageId})
        -- A job in flight is being sent now: its attempt is the one to wait for.
        returning coalesce((payload -> 'resend' ->> 'after')::int, 0) + attempts
          + case when locked_until > now() then 0 else 1 end as next`),
    );
    let next = waiting?.next;
    if (next === undefined) {
      const type = WEBHOOK_MESSAGE_TYPES.find((known) => known === attempt.eventType);
      if (!type || attempt.requestBody === null || "failed" in resentBody(type, attempt.requestBody)) {
        throw conflict(WEBHOOK_MESSAGES.resendNoBody);
      }
      const [made] = await tx
        .select({ after: max(webhookAttempts.attempt) })
        .from(webhookAttempts)
        .where(and(eq(webhookAttempts.endpointId, endpointId), eq(webhookAttempts.messageId, messageId)));
      const after = made?.after ?? 0;
      await queueResend(tx, { endpointId, resend: { messageId, attemptId, type, after } });
      next = after + 1;
    }
    await recordSecurityEvent(tx, actor, {
      action: "webhook_message_resent",
      organizationId,
      target: `${messageId} → ${endpoint.url}`,
    });
    return { message: WEBHOOK_MESSAGES.resendQueued, messageId, attempt: Number(next) };
  });
}

/**
 * The last attempts, newest first, with the messages waiting for their next attempt on top of
 * them ('pending', at the time it is due); with `messageId`, that message's only (a test event's
 * or a resend's outcome, asked for until it is known).
 */
export async function listDeliveries(
  db: Db,
  organizationId: string,
  id: string,
  messageId?: string,
): Promise<WebhookDelivery[]> {
  await findEndpoint(db, organizationId, id);
  // A resend's job is sent as the message it resends, and listed after that message's attempts.
  const jobMessage = sql`coalesce(j.payload -> 'resend' ->> 'messageId', j.id)`;
  const result = await db.execute(sql`
    select * from (
      (select a.id, a.message_id, a.event_type, a.attempt, a.status, a.response_status, a.duration_ms,
          a.response_body, a.request_body, a.created_at
        from webhook_attempts a
        where a.endpoint_id = ${id} ${messageId === undefined ? sql`` : sql`and a.message_id = ${messageId}`}
        order by a.created_at desc
        limit ${DELIVERIES_LISTED})
      union all
      -- A job holds its event type; one queued by an older release, its message; a resend, both.
      (select j.id || ':' || (j.attempts + 1), ${jobMessage},
          coalesce(j.payload ->> 'type', j.payload -> 'message' ->> 'type', j.payload -> 'resend' ->> 'type'),
          coalesce((j.payload -> 'resend' ->> 'after')::int, 0) + j.attempts + 1, 'pending',
          null, null, null, null, j.run_at
        from jobs j
        where j.partition_key = ${id} and j.kind = 'webhook' and j.status = 'pending'
          ${messageId === undefined ? sql`` : sql`and ${jobMessage} = ${messageId}`}
        order by j.created_at desc
        limit ${DELIVERIES_LISTED})
    ) deliveries
    order by created_at desc, attempt desc
    limit ${DELIVERIES_LISTED}`);
  return rowsOf<{
    id: string;
    message_id: string;
    event_type: string;
    attempt: number;
    status: WebhookDelivery["status"];
    response_status: number | null;
    duration_ms: number | null;
    response_body: string | null;
    request_body: string | null;
    created_at: Date | string;
  }>(result).map((row) => ({
    id: row.id,
    messageId: row.message_id,
    eventType: row.event_type,
    attempt: row.attempt,
    status: row.status,
    responseStatus: row.response_status,
    durationMs: row.duration_ms,
    response: row.response_body,
    request: row.request_body,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}
