import { and, count, eq } from "drizzle-orm";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { lastSweepAt } from "../data-lifecycle/data-lifecycle";
import type { Db, PoolStats } from "../db/client";
import { jobs } from "../db/schema";
import { withTimeout } from "../lib/bounded-wait";
import type { Refusal } from "../lib/group-commit";

export type EventKind = "clicks" | "conversions";

export type Metrics = {
  /** This app's registry: never prom-client's global one, since tests build several apps. */
  registry: Registry;
  /** One answered request (added as an onResponse hook only when METRICS_PORT is set). */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void;
  /**
   * One committed insert of clicks or conversions (the group-commit writer): `size` events in the batch,
   * `stored` of them new rows (the rest were already there), `seconds` from insert to commit.
   */
  recordEventBatch(kind: EventKind, size: number, stored: number, seconds: number, late?: boolean): void;
  /** Clicks or conversions answered 503 by the group commit instead of their commit. */
  recordEventRefusal(kind: EventKind, refusal: Refusal): void;
  /**
   * A validly signed Stripe event Buddy could not read, answered 200 and recorded nowhere else:
   * `webhook` says whose Stripe sent it (an organization's own, or Buddy's billing), `reason` what
   * could not be read (a short fixed label).
   */
  recordUnreadableStripeEvent(webhook: StripeWebhook, reason: string): void;
};

export type StripeWebhook = "integration" | "billing";

export type MetricsDeps = {
  db: Db;
  /** PostgreSQL's pool; PGlite has none, and then no pool gauges are exported. */
  poolStats?: () => PoolStats;
  /** Node's process metrics (CPU, memory, event loop, GC): only when someone scrapes them. */
  processMetrics: boolean;
  /** Whether Redis answers; without REDIS_URL there is no Redis to watch, and no gauge. */
  redisUp?: () => boolean;
};

/** A scrape must not hang on a stuck database: the backlog is left as last read. */
const SCRAPE_QUERY_TIMEOUT_MS = 2_000;

export function createMetrics(deps: MetricsDeps): Metrics {
  const registry = new Registry();
  const registers = [registry];
  if (deps.processMetrics) collectDefaultMetrics({ register: registry });

  const requestDuration = new Histogram({
    name: "buddy_http_request_duration_seconds",
    help: "Time to answer a request, by method, route pattern and status code.",
    labelNames: ["method", "route", "status_code"] as const,
    registers,
  });
  const stored = {
    clicks: new Counter({
      name: "buddy_clicks_stored_total",
      help: "Click events committed to the database.",
      registers,
    }),
    conversions: new Counter({
      name: "buddy_conversions_stored_total",
      help: "Conversions (leads, and purchases from the API and Stripe) committed to the database.",
      registers,
    }),
  };
  const batchSize = new Histogram({
    name: "buddy_event_insert_batch_size",
    help: "Events per multi-row insert (group commit), by kind.",
    labelNames: ["kind"] as const,
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000],
    registers,
  });
  const commitSeconds = new Histogram({
    name: "buddy_event_commit_seconds",
    help: "Time from an insert of events to its commit, by kind.",
    labelNames: ["kind"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const failedBatches = new Counter({
    name: "buddy_event_batches_failed_total",
    help: "Inserts of events whose requests were answered 503: the insert failed (error) or was not committed within its deadline (deadline).",
    labelNames: ["kind", "reason"] as const,
    registers,
  });
  const refused = new Counter({
    name: "buddy_event_requests_refused_total",
    help: "Clicks and conversions answered 503 instead of committed, by kind and reason (error, deadline, full: the queue was at its cap).",
    labelNames: ["kind", "reason"] as const,
    registers,
  });
  const storedAfterRefusal = new Counter({
    name: "buddy_events_stored_after_refusal_total",
    help: "Events committed after their requests were answered 503 (an insert past its deadline that committed after all): stored and counted like any other.",
    labelNames: ["kind"] as const,
    registers,
  });

  const unreadableStripeEvents = new Counter({
    name: "buddy_stripe_events_unreadable_total",
    help: "Validly signed Stripe events of a shape Buddy cannot read, answered 200 and not recorded, by webhook (integration: an organization's own Stripe; billing: Buddy's) and reason.",
    labelNames: ["webhook", "reason"] as const,
    registers,
  });

  new Gauge({
    name: "buddy_mail_outbox_backlog",
    help: "Mails queued in the outbox and not yet sent (read from the database when scraped).",
    registers,
    async collect() {
      const query = deps.db
        .select({ pending: count() })
        .from(jobs)
        .where(and(eq(jobs.kind, "mail"), eq(jobs.status, "pending")))
        .then(([row]) => row?.pending ?? 0);
      // An unreachable database shows in /readyz and the pool gauges; the scrape still answers.
      const pending = await withTimeout(query, SCRAPE_QUERY_TIMEOUT_MS, () => null).catch(() => null);
      if (pending !== null) this.set(pending);
    },
  });

  new Gauge({
    name: "buddy_data_lifecycle_last_success_timestamp_seconds",
    help: "When a data lifecycle pass (partitions made and dropped, expired rows deleted) last ran to its end, on any instance (read from the database when scraped; 0 before the first).",
    registers,
    async collect() {
      const at = await withTimeout(lastSweepAt(deps.db), SCRAPE_QUERY_TIMEOUT_MS, () => undefined).catch(
        () => undefined,
      );
      if (at !== undefined) this.set(at ? at.getTime() / 1000 : 0);
    },
  });

  const { redisUp } = deps;
  if (redisUp) {
    new Gauge({
      name: "buddy_redis_up",
      help: "1 while Redis answers, 0 while each instance falls back to its own memory.",
      registers,
      collect() {
        this.set(redisUp() ? 1 : 0);
      },
    });
  }

  const { poolStats } = deps;
  if (poolStats) {
    const poolGauge = (name: string, help: string, read: (stats: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(poolStats()));
        },
      });
    poolGauge("buddy_db_pool_connections", "Connections the PostgreSQL pool holds open.", (s) => s.total);
    poolGauge("buddy_db_pool_idle_connections", "Open pool connections not in use.", (s) => s.idle);
    poolGauge("buddy_db_pool_waiting_queries", "Queries waiting for a pool connection.", (s) => s.waiting);
  }

  return {
    registry,
    observeRequest(method, route, statusCode, seconds) {
      requestDuration.observe({ method, route, status_code: statusCode }, seconds);
    },
    recordEventBatch(kind, size, storedRows, seconds, late = false) {
      stored[kind].inc(storedRows);
      if (late) storedAfterRefusal.inc({ kind }, storedRows);
      batchSize.observe({ kind }, size);
      commitSeconds.observe({ kind }, seconds);
    },
    recordEventRefusal(kind, refusal) {
      refused.inc({ kind, reason: refusal.reason }, refusal.rows);
      if (refusal.batch) failedBatches.inc({ kind, reason: refusal.reason });
    },
    recordUnreadableStripeEvent(webhook, reason) {
      unreadableStripeEvents.inc({ webhook, reason });
    },
  };
}
