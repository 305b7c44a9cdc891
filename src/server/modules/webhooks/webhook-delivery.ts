import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { DAY_MS } from "@shared/days";
import { WEBHOOK_MESSAGE_TYPES, WEBHOOK_TEST_EVENT, type WebhookMessageType } from "@shared/webhooks";
import { and, eq, inArray, lte, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import { type Db, rowsOf } from "../../db/client";
import { memberships, organizations, users, webhookEndpoints } from "../../db/schema";
import { createGroupCommit } from "../../lib/group-commit";
import { type HostLookup, OutboundFetchError, safeFetch } from "../../lib/safe-fetch";
import type { SecretSealer } from "../../lib/sealed-secrets";
import { enqueueMail } from "../../mail/mail-jobs";
import { webhookDisabledMail } from "../../mail/webhook-mails";
import type { ClaimedJob, JobHandler, JobOutcome } from "../../outbox/jobs";
import { queueWebhookFailingNotices } from "../notifications/event-notices";
import {
  type BuiltMessage,
  isoUtc,
  messageBody,
  type ResendJob,
  resentBody,
  WEBHOOK_PRODUCERS,
  type WebhookJobPayload,
  webhookJobPayloadSchema,
} from "./webhook-events";

export type WebhookDeliveryOptions = {
  /** WEBHOOK_RETRY_DELAYS: the waits before the 2nd, 3rd… attempts; after the last, the message failed. */
  retryDelaysMs: readonly number[];
  /** One attempt, connection to last byte. */
  timeoutMs: number;
  /** An endpoint failing this long in a row is disabled and its admins are mailed. */
  disableAfterMs: number;
  /** The clock of attempts and of the failing streak (tests shorten days to moments). */
  now(): Date;
  /** OUTBOUND_ALLOW_PRIVATE: local receivers in tests. */
  allowPrivate: boolean;
  /** Tests map names to local receivers, to show a name turned private is refused. */
  lookup?: HostLookup;
};

export const DEFAULT_WEBHOOK_DELIVERY: Omit<WebhookDeliveryOptions, "retryDelaysMs" | "allowPrivate"> = {
  timeoutMs: 10_000,
  disableAfterMs: 5 * 24 * 60 * 60_000,
  now: () => new Date(),
};

/** The response kept per attempt. */
const RESPONSE_BYTES = 1024;
/** The body kept per attempt, for the deliveries drawer and Resend: every message Buddy makes fits. */
const REQUEST_BYTES = 16 * 1024;

type Endpoint = {
  id: string;
  organizationId: string;
  url: string;
  enabled: boolean;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
};

type Attempt = {
  id: string;
  endpoint_id: string;
  message_id: string;
  event_type: string;
  attempt: number;
  status: "succeeded" | "failed";
  response_status: number | null;
  duration_ms: number;
  response_body: string | null;
  request_body: string;
  created_at: string;
};

/** The body's first REQUEST_BYTES (a character cut in two is replaced, as the kept response's are). */
function keptBody(body: string): string {
  const bytes = Buffer.from(body, "utf8");
  return bytes.length <= REQUEST_BYTES ? body : bytes.subarray(0, REQUEST_BYTES).toString("utf8");
}

/** What a receiver answered, as text a database column takes (no NUL), or why it did not. */
function responseText(body: Buffer): string {
  return body.toString("utf8").replaceAll("\u0000", "");
}

function failureText(error: unknown, timeoutMs: number): string {
  if (error instanceof OutboundFetchError) {
    switch (error.reason) {
      case "timeout":
        return `No answer within ${timeoutMs / 1000} s`;
      case "too_many_redirects":
        return "The endpoint answered with a redirect: webhooks are not redirected";
      case "blocked_address":
        return `Refused: ${error.message} (private, loopback or non-standard port)`;
      default:
        return error.message;
    }
  }
  return error instanceof Error ? error.message : String(error);
}

/** For each endpoint of a batch of attempts: did it succeed since, and its first failure after that. */
function failingStreaks(attempts: readonly Attempt[]) {
  const streaks = new Map<string, { reset: boolean; firstFailure: string | null }>();
  for (const attempt of [...attempts].sort((a, b) => a.created_at.localeCompare(b.created_at))) {
    const streak = streaks.get(attempt.endpoint_id) ?? { reset: false, firstFailure: null };
    if (attempt.status === "succeeded") streaks.set(attempt.endpoint_id, { reset: true, firstFailure: null });
    else
      streaks.set(attempt.endpoint_id, {
        ...streak,
        firstFailure: streak.firstFailure ?? attempt.created_at,
      });
  }
  return [...streaks].map(([endpoint_id, streak]) => ({
    endpoint_id,
    reset: streak.reset,
    first_failure: streak.firstFailure,
  }));
}

type Message = {
  type: WebhookMessageType;
  built: BuiltMessage;
  /** The `webhook-id`: the job's own id, or for a resend the message's it sends again. */
  messageId: string;
  /** The message's attempts before this job's first: a resend's are listed after them. */
  after: number;
  /** A resend is one attempt: the admin who asked for it sees its outcome, and no retries follow. */
  once: boolean;
};

/** The event a job's message is of, whichever shape the job has. */
function typeOf(payload: WebhookJobPayload): WebhookMessageType {
  if ("message" in payload) return payload.message.type;
  if ("resend" in payload) return payload.resend.type;
  return payload.type;
}

/**
 * The messages of a batch of claimed jobs, by job id: built from the rows their ids name by their
 * event's producer (one query per event type), with the job's `created_at` as their `timestamp`;
 * a job queued by an older release holds its message already built. Either way the message is
 * checked against its event's schema, whose field order is the order sent. A resend sends the body
 * its attempt sent (one query for the batch's), checked the same way.
 */
async function buildMessages(
  db: Db,
  jobs: readonly { job: ClaimedJob; payload: WebhookJobPayload }[],
): Promise<Map<string, Message>> {
  const messages = new Map<string, Message>();
  const fresh: { id: string; type: WebhookMessageType; payload: WebhookJobPayload }[] = [];
  const resends: { id: string; resend: ResendJob["resend"] }[] = [];
  for (const { job, payload } of jobs) {
    if ("message" in payload) {
      messages.set(job.id, {
        type: payload.message.type,
        built: messageBody(payload.message.type, payload.message),
        messageId: job.id,
        after: 0,
        once: false,
      });
    } else if ("resend" in payload) resends.push({ id: job.id, resend: payload.resend });
    else fresh.push({ id: job.id, type: payload.type, payload });
  }
  if (resends.length > 0) {
    const kept = await db.execute(sql`
      select id, request_body from webhook_attempts
      where id in (select json_array_elements_text(${JSON.stringify(resends.map((job) => job.resend.attemptId))}::json))`);
    const bodies = new Map(
      rowsOf<{ id: string; request_body: string | null }>(kept).map((row) => [row.id, row.request_body]),
    );
    for (const { id, resend } of resends) {
      const body = bodies.get(resend.attemptId);
      messages.set(id, {
        type: resend.type,
        built:
          body === undefined
            ? { skipped: "the attempt it sends again is gone" }
            : body === null
              ? { failed: "the attempt it sends again kept no body" }
              : resentBody(resend.type, body),
        messageId: resend.messageId,
        after: resend.after,
        once: true,
      });
    }
  }
  if (fresh.length === 0) return messages;
  const made = await db.execute(sql`
    select id, ${isoUtc(sql`created_at`)} as made_at from jobs
    where id in (select json_array_elements_text(${JSON.stringify(fresh.map((job) => job.id))}::json))`);
  const madeAt = new Map(rowsOf<{ id: string; made_at: string }>(made).map((row) => [row.id, row.made_at]));
  for (const type of WEBHOOK_MESSAGE_TYPES) {
    const ofType = fresh.flatMap((job) => {
      const at = madeAt.get(job.id);
      return job.type === type && at !== undefined ? [{ id: job.id, madeAt: at, payload: job.payload }] : [];
    });
    if (ofType.length === 0) continue;
    for (const [id, built] of await WEBHOOK_PRODUCERS[type].messages(db, ofType))
      messages.set(id, { type, built, messageId: id, after: 0, once: false });
  }
  return messages;
}

/**
 * Delivers the outbox's webhook messages (CONTRACT §9): signed the Standard Webhooks way with the
 * endpoint's secret (and, for a day after a rotation, its previous one too), POSTed through the
 * SSRF-safe client with the endpoint's name resolved again for each attempt, answered within
 * `timeoutMs`. Each attempt is recorded for the deliveries list, and the endpoint's failing streak
 * with it; an endpoint failing for `disableAfterMs` is disabled in the transaction that mails its
 * admins.
 */
export function webhookJobHandler(deps: {
  db: Db;
  sealer: SecretSealer;
  publicUrl: string;
  log: FastifyBaseLogger;
  options: WebhookDeliveryOptions;
  /** Mail was queued (an endpoint disabled): send it now rather than at the next poll. */
  onMailQueued(): void;
}): JobHandler {
  const { db, sealer, log, options } = deps;

  const retryDelay = (job: ClaimedJob) => options.retryDelaysMs[job.attempts - 1] ?? null;

  async function disableFailing(endpointId: string, cutoff: Date) {
    const mailed = await db.transaction(async (tx) => {
      const [endpoint] = await tx
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: "failing", updatedAt: options.now() })
        .where(
          and(
            eq(webhookEndpoints.id, endpointId),
            eq(webhookEndpoints.enabled, true),
            lte(webhookEndpoints.failingSince, cutoff),
          ),
        )
        .returning({ organizationId: webhookEndpoints.organizationId, url: webhookEndpoints.url });
      if (!endpoint) return false;
      const admins = await tx
        .select({ email: users.email, organizationName: organizations.name })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
        .where(
          and(
            eq(memberships.organizationId, endpoint.organizationId),
            eq(memberships.role, "admin"),
            eq(memberships.status, "active"),
          ),
        );
      for (const admin of admins) {
        await enqueueMail(
          tx,
          webhookDisabledMail(admin.email, {
            publicUrl: deps.publicUrl,
            organizationName: admin.organizationName,
            url: endpoint.url,
            failingDays: Math.round(options.disableAfterMs / DAY_MS),
          }),
        );
      }
      log.warn({ endpointId, organizationId: endpoint.organizationId }, "webhook endpoint disabled: failing");
      return admins.length > 0;
    });
    if (mailed) deps.onMailQueued();
  }

  /** One statement per batch of attempts: the rows, and each endpoint's failing streak. */
  const attempts = createGroupCommit<Attempt>({
    maxBatch: 500,
    deadlineMs: 30_000,
    async write(rows) {
      const cutoff = new Date(options.now().getTime() - options.disableAfterMs);
      const result = await db.execute(sql`
        with input as (
          select * from json_to_recordset(${JSON.stringify(rows)}::json) as x(
            id text, endpoint_id text, message_id text, event_type text, attempt int, status text,
            response_status int, duration_ms int, response_body text, request_body text,
            created_at timestamptz)
        ), inserted as (
          insert into webhook_attempts (id, endpoint_id, message_id, event_type, attempt, status,
            response_status, duration_ms, response_body, request_body, created_at)
          select i.id, i.endpoint_id, i.message_id, i.event_type, i.attempt, i.status, i.response_status,
            i.duration_ms, i.response_body, i.request_body, i.created_at
          from input i
          -- An endpoint deleted meanwhile keeps no attempts.
          where exists (select 1 from webhook_endpoints e where e.id = i.endpoint_id)
        ), streaks as (
          select * from json_to_recordset(${JSON.stringify(failingStreaks(rows))}::json)
            as s(endpoint_id text, reset boolean, first_failure timestamptz)
        )
        update webhook_endpoints e
        set failing_since = case when s.reset then s.first_failure else coalesce(e.failing_since, s.first_failure) end
        from streaks s
        where e.id = s.endpoint_id
        returning e.id, e.enabled, e.failing_since`);
      const streaks = rowsOf<{ id: string; enabled: boolean; failing_since: Date | string | null }>(result);
      // Its admins hear of a failing streak once, as it starts (issue 37, item 8).
      const failing = streaks.filter((e) => e.enabled && e.failing_since !== null).map((e) => e.id);
      if (failing.length > 0) {
        await queueWebhookFailingNotices(db, failing).then(
          (queued) => queued > 0 && deps.onMailQueued(),
          (error: unknown) => log.warn({ err: error }, "could not queue a failing webhook notice"),
        );
      }
      for (const endpoint of streaks) {
        if (
          endpoint.enabled &&
          endpoint.failing_since !== null &&
          new Date(endpoint.failing_since) <= cutoff
        ) {
          await disableFailing(endpoint.id, cutoff).catch((error: unknown) =>
            log.error(
              { err: error, endpointId: endpoint.id },
              "could not disable a failing webhook endpoint",
            ),
          );
        }
      }
      return rows.length;
    },
  });

  function signingSecrets(endpoint: Endpoint, now: Date): string[] {
    const secrets = [sealer.open(endpoint.secretSealed)];
    if (
      endpoint.previousSecretSealed &&
      endpoint.previousSecretExpiresAt &&
      endpoint.previousSecretExpiresAt > now
    ) {
      secrets.push(sealer.open(endpoint.previousSecretSealed));
    }
    return secrets.filter((secret): secret is string => secret !== null);
  }

  async function deliver(job: ClaimedJob, message: Message, endpoint: Endpoint): Promise<JobOutcome> {
    if ("skipped" in message.built) return { status: "skipped", reason: message.built.skipped };
    if ("failed" in message.built) return { status: "failed", error: message.built.failed };
    const now = options.now();
    const secrets = signingSecrets(endpoint, now);
    // Sealed under another APP_SECRET: nothing this deployment can sign with.
    if (secrets.length === 0) return { status: "failed", error: "the endpoint's secret cannot be opened" };
    const { body } = message.built;
    const { messageId } = message;
    const signature = secrets.map((secret) => new Webhook(secret).sign(messageId, now, body)).join(" ");
    const started = performance.now();
    let ok = false;
    let responseStatus: number | null = null;
    let response: string | null = null;
    try {
      const answer = await safeFetch(endpoint.url, {
        method: "POST",
        body,
        headers: {
          "content-type": "application/json",
          accept: "*/*",
          "user-agent": "Buddy-Webhooks/1.0",
          "webhook-id": messageId,
          "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
          "webhook-signature": signature,
        },
        timeoutMs: options.timeoutMs,
        maxBytes: RESPONSE_BYTES,
        truncate: true,
        allowPrivate: options.allowPrivate,
        lookup: options.lookup,
        // The name is still resolved and checked for every attempt; only the connection to an
        // address that check passed is kept, which spares a receiver a handshake per message.
        keepAlive: true,
      });
      responseStatus = answer.status;
      response = responseText(answer.body);
      ok = answer.status >= 200 && answer.status < 300;
    } catch (error) {
      response = failureText(error, options.timeoutMs);
    }
    // Written in the background: the endpoint may have its next message meanwhile, and the
    // worker writes this one's outcome once its attempt is stored.
    const recorded = attempts.add({
      id: randomUUID(),
      endpoint_id: endpoint.id,
      message_id: messageId,
      event_type: message.type,
      attempt: message.after + job.attempts,
      status: ok ? "succeeded" : "failed",
      response_status: responseStatus,
      duration_ms: Math.round(performance.now() - started),
      response_body: response,
      request_body: keptBody(body),
      created_at: now.toISOString(),
    });
    // The worker waits for it (and fails the run if it fails): not an unhandled rejection.
    recorded.catch(() => {});
    if (ok) return { status: "done", recorded };
    const error = responseStatus === null ? (response ?? "no response") : `HTTP ${responseStatus}`;
    const delayMs = message.once ? null : retryDelay(job);
    return delayMs === null
      ? { status: "failed", error, recorded }
      : { status: "retry", delayMs, error, recorded };
  }

  return {
    async start(jobs) {
      const parsed = jobs.map((job) => ({ job, payload: webhookJobPayloadSchema.safeParse(job.payload) }));
      const valid = parsed.flatMap(({ job, payload }) =>
        payload.success ? [{ job, payload: payload.data }] : [],
      );
      const ids = [...new Set(valid.map(({ payload }) => payload.endpointId))];
      const rows =
        ids.length === 0
          ? []
          : await db
              .select({
                id: webhookEndpoints.id,
                organizationId: webhookEndpoints.organizationId,
                url: webhookEndpoints.url,
                enabled: webhookEndpoints.enabled,
                secretSealed: webhookEndpoints.secretSealed,
                previousSecretSealed: webhookEndpoints.previousSecretSealed,
                previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
              })
              .from(webhookEndpoints)
              .where(inArray(webhookEndpoints.id, ids));
      const endpoints = new Map(rows.map((row) => [row.id, row]));
      /** Why a job is not sent, before its message is built: its endpoint deleted, or disabled. */
      const skip = (payload: WebhookJobPayload): string | null => {
        const endpoint = endpoints.get(payload.endpointId);
        if (!endpoint) return "endpoint deleted";
        // A test event goes even to a disabled endpoint: an admin checking it before enabling it again.
        return endpoint.enabled || typeOf(payload) === WEBHOOK_TEST_EVENT ? null : "endpoint disabled";
      };
      const messages = await buildMessages(
        db,
        valid.filter(({ payload }) => skip(payload) === null),
      );
      return parsed.map(({ job, payload }): Promise<JobOutcome> => {
        if (!payload.success) {
          return Promise.resolve({
            status: "failed",
            error: `not a webhook job: ${z.prettifyError(payload.error)}`,
          });
        }
        const reason = skip(payload.data);
        const endpoint = endpoints.get(payload.data.endpointId);
        const message = messages.get(job.id);
        if (reason !== null || !endpoint)
          return Promise.resolve({ status: "skipped", reason: reason ?? "endpoint deleted" });
        if (!message) return Promise.resolve({ status: "skipped", reason: "its message was not built" });
        return deliver(job, message, endpoint);
      });
    },
    retryDelayMs: retryDelay,
  };
}
