import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { type ExtractTablesWithRelations, sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import * as schema from "./schema";

type Schema = typeof schema;
/** Both drivers share Drizzle's PostgreSQL dialect, so services see one type. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A service may run on the database or inside a caller's transaction. */
export type DbOrTx = Db | Tx;

/** A connection pool's use: open connections, the idle ones, and queries waiting for one. */
export type PoolStats = { total: number; idle: number; waiting: number };

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /** Runs fn with a session-level advisory lock held (serialises migrations across instances). */
  withLock<T>(key: number, fn: (db: Db) => Promise<T>): Promise<T>;
  /**
   * Runs fn only if no other session holds the advisory lock `key`, and answers null at once
   * otherwise: of the instances that run a periodic task, one at a time does. Each of fn's
   * statements is bounded by `statementTimeoutMs`.
   */
  tryLock<T>(
    key: number,
    statementTimeoutMs: number,
    fn: (db: Db) => Promise<T>,
  ): Promise<{ value: T } | null>;
  close(): Promise<void>;
  /** PostgreSQL's URL, for the one connection kept outside the pool (change notifications). */
  connectionString?: string;
  /** The PGlite instance, whose own LISTEN serves change notifications in this process. */
  pglite?: PGlite;
  /** PostgreSQL only: PGlite is one connection in this process, with no pool to watch. */
  poolStats?: () => PoolStats;
};

/** The rows of a raw `db.execute`: node-postgres answers { rows }, PGlite an array-like result. */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}

/**
 * Runs fn in a transaction whose statements are planned without parallel workers. For a read in
 * the request path of a few tens of thousands of rows (the partners' ledger over the roll-ups),
 * starting workers costs more than they save, and on a small server they take the cores other
 * requests need: on the 2-core bench machine the ledger took 15 to 30 ms longer with them. PGlite
 * has no parallel workers; the setting is accepted and changes nothing.
 */
export function withoutParallelWorkers<T>(db: DbOrTx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
    return fn(tx);
  });
}

const drizzleOptions = { schema, casing: "snake_case" as const };

/**
 * Every wait on PostgreSQL is bounded, so a server that stops answering (a lock wait, a half-open
 * socket after a failover, a partition) costs a request seconds, not the client's patience:
 * - a connection, new or from the pool, within 3 s;
 * - a statement runs 5 s at most: the server cancels it (57014) and the connection stays usable;
 * - a statement the server does not answer within 6 s (its cancel included) is given up by the
 *   client, and the pool destroys that connection instead of reusing it;
 * - idle connections are probed by TCP keep-alive from 10 s of silence, so one the network lost is
 *   found and replaced rather than handed to a request.
 */
export const POOL_TIMEOUTS = {
  connectionTimeoutMillis: 3_000,
  statement_timeout: 5_000,
  query_timeout: 6_000,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
} as const;

/**
 * PGlite in DATA_DIR (or in memory when dataDir is null, for tests). None of the pool's bounds
 * apply: there is no network, and PGlite, running in this thread, accepts a statement_timeout but
 * has no timer to cancel with. The group commit's deadline still bounds what a click waits.
 * `loadDataDir`, a dump of another instance's data directory, starts it as a copy of that one
 * (tests: a migrated database, testing/database.ts).
 */
export async function openPglite(
  dataDir: string | null,
  options: { loadDataDir?: Blob } = {},
): Promise<Database> {
  const client = dataDir ? new PGlite(path.join(dataDir, "pglite"), options) : new PGlite(options);
  await client.waitReady;
  const db = drizzlePglite({ client, ...drizzleOptions }) as unknown as Db;
  // PGlite's one session would take its own advisory locks again: the apps of this process that
  // share it (tests' instances) take turns through this set instead.
  const held = new Set<number>();
  return {
    db,
    kind: "pglite",
    pglite: client,
    // PGlite is one connection in one process: nothing else can run migrations beside us.
    withLock: (_key, fn) => fn(db),
    async tryLock(key, _statementTimeoutMs, fn) {
      if (held.has(key)) return null;
      held.add(key);
      try {
        return { value: await fn(db) };
      } finally {
        held.delete(key);
      }
    },
    close: () => client.close(),
  };
}

/** One connection of its own, bounded like the pool's in connecting and kept alive the same way. */
async function connectOutsidePool(
  connectionString: string,
  bounds: { statement_timeout?: number; query_timeout?: number },
): Promise<pg.Client> {
  const { connectionTimeoutMillis, keepAlive, keepAliveInitialDelayMillis } = POOL_TIMEOUTS;
  const client = new pg.Client({
    connectionString,
    connectionTimeoutMillis,
    keepAlive,
    keepAliveInitialDelayMillis,
    ...bounds,
  });
  // A connection lost here fails the statement that was running: no crash on top of it.
  client.on("error", () => {});
  await client.connect();
  return client;
}

export async function openPostgres(
  connectionString: string,
  onIdleError: (error: Error) => void = (error) =>
    console.error("PostgreSQL idle connection error:", error.message),
): Promise<Database> {
  // No probe here: the server may come up after us (start-up retries, lifecycle/lifecycle.ts), and
  // a hung server fails a query's wait for a connection instead of holding its request forever.
  const pool = new pg.Pool({ connectionString, max: 10, ...POOL_TIMEOUTS });
  // An idle connection dropped by the server (restart, failover, a dropped database) must not
  // crash the process: the pool opens a new one on the next query.
  pool.on("error", onIdleError);
  const db = drizzleNodePg({ client: pool, ...drizzleOptions }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    connectionString,
    async withLock(key, fn) {
      // Outside the pool and its statement bounds: the lock waits for another instance's
      // migrations, and a migration may rewrite a large table.
      const client = await connectOutsidePool(connectionString, {});
      try {
        await client.query("select pg_advisory_lock($1)", [key]);
        try {
          return await fn(drizzleNodePg({ client, ...drizzleOptions }) as unknown as Db);
        } finally {
          await client.query("select pg_advisory_unlock($1)", [key]);
        }
      } finally {
        await client.end().catch(() => {});
      }
    },
    async tryLock(key, statementTimeoutMs, fn) {
      // Its own session, since an advisory lock belongs to one; DDL in fn (a partition dropped
      // concurrently) must not run inside a pooled connection's transaction either.
      const client = await connectOutsidePool(connectionString, {
        statement_timeout: statementTimeoutMs,
        query_timeout: statementTimeoutMs + 1_000,
      });
      try {
        const { rows } = await client.query<{ taken: boolean }>("select pg_try_advisory_lock($1) as taken", [
          key,
        ]);
        if (!rows[0]?.taken) return null;
        try {
          return { value: await fn(drizzleNodePg({ client, ...drizzleOptions }) as unknown as Db) };
        } finally {
          await client.query("select pg_advisory_unlock($1)", [key]).catch(() => {});
        }
      } finally {
        await client.end().catch(() => {});
      }
    },
    close: () => pool.end(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

export function openDatabase(options: { databaseUrl?: string; dataDir: string | null }): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir);
}
