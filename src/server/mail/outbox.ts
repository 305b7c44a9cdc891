import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db, DbOrTx } from "../db/client";
import { describeUnavailable, isDatabaseUnavailable } from "../db/database-unavailable";
import { type MailKind, mailOutbox } from "../db/schema";
import type { Mailer, MailMessage } from "../lib/mailer";

/** Queues a mail in the caller's transaction: it is sent only if the caller's change commits. */
export async function enqueueMail(db: DbOrTx, message: MailMessage): Promise<void> {
  await db.insert(mailOutbox).values(message);
}

export type ComposedKind = Exclude<MailKind, "message">;

/**
 * Queues a mail of `kind` for `to`, composed by the worker when it sends it (MAIL_KINDS): the
 * same row whatever the worker will find.
 */
export async function enqueueComposedMail(db: DbOrTx, kind: ComposedKind, to: string): Promise<void> {
  await db.insert(mailOutbox).values({ kind, to, subject: "", text: "", html: "" });
}

/**
 * Writes the mail of a composed row when it is sent, or answers null when there is nothing to
 * send; it runs again on each retry, so what it makes must be usable from any one attempt.
 */
export type MailComposer = (db: Db, to: string) => Promise<MailMessage | null>;

export type OutboxOptions = {
  pollIntervalMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** A mail still undelivered after this long is marked failed and logged. */
  giveUpAfterMs: number;
  batchSize: number;
};

export const DEFAULT_OUTBOX_OPTIONS: OutboxOptions = {
  pollIntervalMs: 5_000,
  retryBaseMs: 5_000,
  retryMaxMs: 10 * 60_000,
  giveUpAfterMs: 48 * 60 * 60_000,
  batchSize: 10,
};

const CLAIM_MS = 2 * 60_000;

export function retryDelayMs(attempts: number, options: Pick<OutboxOptions, "retryBaseMs" | "retryMaxMs">) {
  return Math.min(options.retryMaxMs, options.retryBaseMs * 2 ** Math.max(0, attempts - 1));
}

export type OutboxWorker = {
  /** Sends what is due now (called after a request queues mail, and on every tick). */
  wake(): void;
  /** Runs one pass and resolves when it is done (tests and shutdown). */
  drain(): Promise<number>;
  stop(): Promise<void>;
};

export function startOutboxWorker(deps: {
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  options?: Partial<OutboxOptions>;
  composers?: Partial<Record<ComposedKind, MailComposer>>;
}): OutboxWorker {
  const options = { ...DEFAULT_OUTBOX_OPTIONS, ...deps.options };
  const { db, mailer, log } = deps;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;

  /**
   * Claims due rows with SKIP LOCKED and a lease, so several instances share one outbox
   * without sending a mail twice; a crashed instance's lease simply expires.
   */
  async function claimBatch() {
    const now = new Date();
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.status, "pending"),
          lte(mailOutbox.nextAttemptAt, now),
          or(isNull(mailOutbox.lockedUntil), lte(mailOutbox.lockedUntil, now)),
        ),
      )
      .orderBy(asc(mailOutbox.nextAttemptAt))
      .limit(options.batchSize)
      .for("update", { skipLocked: true });
    return db
      .update(mailOutbox)
      .set({ lockedUntil: new Date(now.getTime() + CLAIM_MS), attempts: sql`${mailOutbox.attempts} + 1` })
      .where(inArray(mailOutbox.id, due))
      .returning();
  }

  function messageOf(row: typeof mailOutbox.$inferSelect): Promise<MailMessage | null> | MailMessage {
    if (row.kind === "message") return row;
    const compose = deps.composers?.[row.kind];
    if (!compose) throw new Error(`no composer for mail of kind ${row.kind}`);
    return compose(db, row.to);
  }

  async function deliverDue(): Promise<number> {
    let sent = 0;
    for (;;) {
      const batch = await claimBatch();
      if (batch.length === 0) return sent;
      for (const row of batch) {
        try {
          const message = await messageOf(row);
          if (message) {
            await mailer.send({
              to: message.to,
              subject: message.subject,
              text: message.text,
              html: message.html,
            });
          }
          await db
            .update(mailOutbox)
            .set({
              status: message ? "sent" : "skipped",
              sentAt: message ? new Date() : null,
              lockedUntil: null,
              lastError: null,
            })
            .where(eq(mailOutbox.id, row.id));
          if (message) sent++;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          const expired = Date.now() - row.createdAt.getTime() > options.giveUpAfterMs;
          await db
            .update(mailOutbox)
            .set({
              status: expired ? "failed" : "pending",
              lockedUntil: null,
              lastError: message.slice(0, 500),
              nextAttemptAt: new Date(Date.now() + retryDelayMs(row.attempts, options)),
            })
            .where(eq(mailOutbox.id, row.id));
          const level = expired ? "error" : "warn";
          log[level]({ mailId: row.id, attempts: row.attempts, err: message }, "mail delivery failed");
        }
      }
      if (stopped) return sent;
    }
  }

  function drain(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = deliverDue()
      .catch((error) => {
        // The next tick tries again; an outage of the database is not a fault of the outbox.
        if (isDatabaseUnavailable(error)) {
          log.warn({ reason: describeUnavailable(error) }, "mail outbox pass skipped: database unavailable");
        } else {
          log.error({ err: error }, "mail outbox pass failed");
        }
        return 0;
      })
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          void drain();
        }
      });
    return running;
  }

  const timer = setInterval(() => void drain(), options.pollIntervalMs);
  timer.unref();

  return {
    wake: () => {
      if (!stopped) void drain();
    },
    drain,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      mailer.close();
    },
  };
}
