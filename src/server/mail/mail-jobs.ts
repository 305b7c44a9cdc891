import type { FastifyBaseLogger } from "fastify";
import type { Db, DbOrTx } from "../db/client";
import { backoffDelay } from "../lib/backoff";
import type { Mailer, MailMessage } from "../lib/mailer";
import { type ClaimedJob, enqueueJob, type JobHandler, type JobOutcome } from "../outbox/jobs";

/**
 * `message`: the mail as written by the request. Any other kind is composed by the worker when
 * it sends it (subject and bodies stay empty): `password_reset` is a reset asked for `to`, which
 * the request cannot even look up without its time telling whether it exists; `notice` is a
 * notification to a person (modules/notifications), written from its `notice` only if the person
 * still wants that kind of mail when it is sent.
 */
export const MAIL_KINDS = ["message", "password_reset", "notice"] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
export type ComposedKind = Exclude<MailKind, "message">;

/**
 * Every mail job shares one partition: a few SMTP conversations at a time per instance, and a
 * stalled mail server holds no webhook delivery.
 */
export const MAIL_PARTITION = "smtp";

/** A mail job's payload; a notice's also names its person (`userId`) and what to tell (`notice`). */
export type MailPayload = MailMessage & { kind: MailKind; userId?: string; notice?: unknown };

/** Queues a mail in the caller's transaction: it is sent only if the caller's change commits. */
export async function enqueueMail(db: DbOrTx, message: MailMessage): Promise<void> {
  const payload: MailPayload = { kind: "message", ...message };
  await enqueueJob(db, { kind: "mail", payload, partitionKey: MAIL_PARTITION });
}

/**
 * Queues a mail of `kind` for `to`, composed by the worker when it sends it (MAIL_KINDS): the
 * same row whatever the worker will find.
 */
export async function enqueueComposedMail(db: DbOrTx, kind: ComposedKind, to: string): Promise<void> {
  const payload: MailPayload = { kind, to, subject: "", text: "", html: "" };
  await enqueueJob(db, { kind: "mail", payload, partitionKey: MAIL_PARTITION });
}

/**
 * Writes the mail of a composed row when it is sent, or answers null when there is nothing to
 * send; it runs again on each retry, so what it makes must be usable from any one attempt.
 */
export type MailComposer = (db: Db, to: string, payload: MailPayload) => Promise<MailMessage | null>;

export type MailRetryOptions = {
  retryBaseMs: number;
  retryMaxMs: number;
  /** A mail still undelivered after this long is marked failed and logged. */
  giveUpAfterMs: number;
};

export const DEFAULT_MAIL_RETRY: MailRetryOptions = {
  retryBaseMs: 5_000,
  retryMaxMs: 10 * 60_000,
  giveUpAfterMs: 48 * 60 * 60_000,
};

export function retryDelayMs(
  attempts: number,
  options: Pick<MailRetryOptions, "retryBaseMs" | "retryMaxMs">,
) {
  return backoffDelay(attempts - 1, { firstMs: options.retryBaseMs, maxMs: options.retryMaxMs });
}

/** Sends the outbox's mail jobs through `mailer`. */
export function mailJobHandler(deps: {
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  options?: Partial<MailRetryOptions>;
  composers?: Partial<Record<ComposedKind, MailComposer>>;
}): JobHandler {
  const options = { ...DEFAULT_MAIL_RETRY, ...deps.options };
  const retryDelay = (job: ClaimedJob) =>
    Date.now() - job.createdAt.getTime() > options.giveUpAfterMs ? null : retryDelayMs(job.attempts, options);

  function messageOf(payload: MailPayload): Promise<MailMessage | null> | MailMessage {
    if (payload.kind === "message") return payload;
    const compose = deps.composers?.[payload.kind];
    if (!compose) throw new Error(`no composer for mail of kind ${payload.kind}`);
    return compose(deps.db, payload.to, payload);
  }

  async function send(job: ClaimedJob): Promise<JobOutcome> {
    try {
      const message = await messageOf(job.payload as MailPayload);
      if (!message) return { status: "skipped", reason: "nothing to send" };
      await deps.mailer.send({
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        ...(message.headers ? { headers: message.headers } : {}),
      });
      return { status: "done" };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const delayMs = retryDelay(job);
      deps.log[delayMs === null ? "error" : "warn"](
        { jobId: job.id, attempts: job.attempts, err: message },
        "mail delivery failed",
      );
      return delayMs === null
        ? { status: "failed", error: message.slice(0, 500) }
        : { status: "retry", delayMs, error: message.slice(0, 500) };
    }
  }

  return {
    async start(jobs) {
      return jobs.map(send);
    },
    retryDelayMs: retryDelay,
  };
}
