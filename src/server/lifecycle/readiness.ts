import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { FastifyBaseLogger } from "fastify";
import { type Db, rowsOf } from "../db/client";
import { isDatabaseUnavailable } from "../db/database-unavailable";
import { withTimeout } from "../lib/bounded-wait";
import type { Lifecycle } from "./lifecycle";

/** What /readyz names when it answers 503. */
export const NOT_READY = {
  starting: "starting up",
  draining: "shutting down",
  database: "the database does not answer",
  migrations: "database migrations are not applied",
} as const;

/** Long enough for a busy server, short enough for a balancer's check. */
const CHECK_TIMEOUT_MS = 2_000;

/** PostgreSQL: the migrations table (or its schema) does not exist. */
const MISSING_RELATION = new Set(["42P01", "3F000"]);

export type ReadinessDeps = {
  lifecycle: Lifecycle;
  db: Db;
  /** The committed migrations: the newest must be applied. */
  migrationsFolder: string;
  log: FastifyBaseLogger;
  timeoutMs?: number;
};

class TimedOut extends Error {}

/**
 * The readiness check behind /readyz: what is not ready, or nothing. Concurrent checks share one
 * run, so a burst of probes makes one query. Only what a request cannot do without: Redis is not
 * asked, since everything that uses it falls back, and one Redis blip would otherwise take every
 * instance out of the balancer (its health is the `buddy_redis_up` gauge).
 */
export function createReadinessCheck(deps: ReadinessDeps): () => Promise<string[]> {
  const timeoutMs = deps.timeoutMs ?? CHECK_TIMEOUT_MS;
  // Drizzle's migrator records each migration's folder timestamp in created_at.
  const newestMigration = Math.max(
    0,
    ...readMigrationFiles({ migrationsFolder: deps.migrationsFolder }).map((m) => m.folderMillis),
  );
  let running: Promise<string[]> | null = null;
  let lastReported = "";

  async function checkDatabase(): Promise<string | null> {
    try {
      const result = await withTimeout(
        deps.db.execute(sql`select max(created_at) as newest from drizzle.__drizzle_migrations`),
        timeoutMs,
        () => {
          throw new TimedOut();
        },
      );
      const newest = Number(rowsOf<{ newest: unknown }>(result)[0]?.newest ?? 0);
      return newest >= newestMigration ? null : NOT_READY.migrations;
    } catch (error) {
      const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
      if (MISSING_RELATION.has(String(cause?.code ?? code))) return NOT_READY.migrations;
      if (!(error instanceof TimedOut) && !isDatabaseUnavailable(error)) {
        deps.log.warn({ err: error }, "readiness: the database check failed");
      }
      return NOT_READY.database;
    }
  }

  async function check(): Promise<string[]> {
    const problem = await checkDatabase();
    const problems = problem ? [problem] : [];
    // Balancers ask every few seconds: say so when the answer changes, not on every probe.
    const report = problems.join("; ");
    if (report !== lastReported) {
      if (report) deps.log.warn({ problems }, "not ready");
      else deps.log.info("ready again");
      lastReported = report;
    }
    return problems;
  }

  return () => {
    const { lifecycle } = deps;
    if (lifecycle.state === "draining") return Promise.resolve([NOT_READY.draining]);
    if (!lifecycle.serving) return Promise.resolve([NOT_READY.starting]);
    running ??= check().finally(() => {
      running = null;
    });
    return running;
  };
}
