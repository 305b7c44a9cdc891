// Issue 38's lifecycle part, on PostgreSQL: migration 0024's time for 10⁷ clicks; then, over 10⁷
// clicks seeded across 13 months and the current one, a month dropped by the data lifecycle's own
// pass while readers click the short link, the click latency with and without the drop; and the
// partitions that a 30-day export and ledger read, from EXPLAIN ANALYZE of their real statements.
import type { SQL } from "drizzle-orm";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pino from "pino";
import { createDataLifecycle } from "../src/server/data-lifecycle/data-lifecycle";
import { nextPeriod, periodStart } from "../src/server/data-lifecycle/partition-periods";
import { partitionedTables } from "../src/server/data-lifecycle/partitioned-tables";
import { createPartition } from "../src/server/data-lifecycle/partitions";
import { type Database, type DbOrTx, openPostgres, rowsOf } from "../src/server/db/client";
import { runMigrations } from "../src/server/db/migrate";
import { exportRows } from "../src/server/modules/exports/export-rows";
import { readPartnersLedger } from "../src/server/modules/reciprocity/ledger.service";
import { startBuddy } from "../src/server/testing/buddy-process";
import { createScratchDatabase, MIGRATIONS_FOLDER } from "../src/server/testing/database";
import { load, pinServer, record } from "./harness";
import { seedOldClicks } from "./lifecycle-seed";
import { benchPartitionMigration } from "./partition-migration";
import { readersFromManyNetworks, setUpForBench } from "./tracking";

const CLICKS = Number(process.env.BENCH_LIFECYCLE_CLICKS ?? 10_000_000);
/** 0 leaves the migration's timing out (a second run of the part while working on it). */
const MIGRATION_CLICKS = Number(process.env.BENCH_MIGRATION_CLICKS ?? CLICKS);
/** The bench's own pass drops what is older than the setting's floor: the oldest seeded month. */
const BENCH_RETENTION_DAYS = 366;
const CONNECTIONS = 50;
const LOAD_SECONDS = 6;
const DROP_AFTER_MS = 2_000;

type PlanNode = { "Relation Name"?: string; "Actual Loops"?: number; Plans?: PlanNode[] };

/** click_events partitions a plan read (a node that ran at least once), by name. */
function partitionsRead(node: PlanNode, into = new Set<string>()): Set<string> {
  const relation = node["Relation Name"];
  if (relation?.startsWith("click_events_p") && (node["Actual Loops"] ?? 0) > 0) into.add(relation);
  for (const child of node.Plans ?? []) partitionsRead(child, into);
  return into;
}

const dialect = new PgDialect();

/** The database, but every query sent through it is also explained (ANALYZE) into `plans`. */
function explaining(db: DbOrTx, plans: PlanNode[]): DbOrTx {
  const execute = async (query: SQL) => {
    // A `set local` of the transaction is run, not explained.
    if (!/^\s*(select|with)\b/i.test(dialect.sqlToQuery(query).sql)) return db.execute(query);
    const [row] = rowsOf<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
      await db.execute(sql`explain (analyze, format json) ${query}`),
    );
    if (row) plans.push(row["QUERY PLAN"][0].Plan);
    return db.execute(query);
  };
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === "execute") return execute;
      if (property === "transaction")
        return (fn: (tx: DbOrTx) => Promise<unknown>) =>
          (target as DbOrTx).transaction((tx) => fn(explaining(tx, plans)));
      return Reflect.get(target, property, receiver);
    },
  });
}

async function explainReads(database: Database, organizationId: string) {
  const end = new Date();
  const range = {
    start: new Date(end.getTime() - 30 * 86_400_000).toISOString(),
    end: end.toISOString(),
  };
  for (const [name, read] of [
    [
      "clicks.csv, 30 days",
      async (db: DbOrTx) => {
        for await (const _row of exportRows(db, "clicks", organizationId, range));
      },
    ],
    [
      "conversions.csv, 30 days",
      async (db: DbOrTx) => {
        for await (const _row of exportRows(db, "conversions", organizationId, range));
      },
    ],
    ["partners' ledger, 30 days", (db: DbOrTx) => readPartnersLedger(db, organizationId, 30)],
  ] as const) {
    const plans: PlanNode[] = [];
    await read(explaining(database.db, plans));
    const read_ = new Set<string>();
    for (const plan of plans) partitionsRead(plan, read_);
    record({
      database: "PostgreSQL",
      name: `${name}: click partitions read (EXPLAIN ANALYZE)`,
      ratio: `${read_.size} of 14${read_.size ? ` (${[...read_].sort().join(", ")})` : ""}`,
      target: "≤ 2",
      ok: read_.size <= 2,
    });
  }
}

export async function benchLifecycle(serverUrl: string) {
  if (MIGRATION_CLICKS > 0) {
    const migration = await benchPartitionMigration(serverUrl, MIGRATION_CLICKS);
    record({
      database: "PostgreSQL",
      name: `migration 0024: ${MIGRATION_CLICKS} clicks moved into monthly partitions`,
      ratio: `${migration.migrationSeconds.toFixed(1)} s (${migration.tableMb.toFixed(0)} MB with indexes)`,
      target: "(information)",
      ok: true,
    });
  }

  const scratch = await createScratchDatabase(serverUrl, "bench_lifecycle");
  const database = await openPostgres(scratch.url);
  const lifecycle = createDataLifecycle({
    db: database.db,
    tryLock: database.tryLock,
    settings: { clickRetentionDays: BENCH_RETENTION_DAYS },
    log: pino({ level: "warn" }),
    clock: () => new Date(),
  });
  try {
    await runMigrations(database, MIGRATIONS_FOLDER);
    const buddy = await startBuddy({ databaseUrl: scratch.url, stdio: "capture", env: { TRUST_PROXY: "1" } });
    pinServer(buddy.pid);
    try {
      const setup = await setUpForBench(buddy);
      // 13 whole months before this one, and this one so far: the oldest month is past 366 days.
      const now = new Date();
      const first = nextPeriod(periodStart(now, "month"), "month", -13);
      const fromDaysAgo = Math.ceil((now.getTime() - first.getTime()) / 86_400_000) - 1;
      // The months that start-up made, and the older ones an instance made back then.
      await lifecycle.prepare();
      const clicksTable = partitionedTables({ clickRetentionDays: BENCH_RETENTION_DAYS }).find(
        (table) => table.table === "click_events",
      );
      if (!clicksTable) throw new Error("click_events is not partitioned");
      for (let month = first; month < now; month = nextPeriod(month, "month"))
        await createPartition(database.db, clicksTable, month);
      const seconds = await database.withLock(0, (db) =>
        seedOldClicks(db, {
          clicks: CLICKS,
          fromDaysAgo,
          toDaysAgo: 0,
          pair: { sourceOrgId: setup.sharerId, targetOrgId: setup.partnerId },
        }),
      );
      console.log(`PostgreSQL: seeded ${CLICKS} clicks over ${fromDaysAgo} days in ${seconds.toFixed(1)} s`);

      // A lead on the set-up's click, for the conversions export to join to its click.
      const lead = await fetch(
        `${buddy.origin}/api/marketing/conversion/${setup.clickId}?type=signup&org=${setup.partnerId}`,
      );
      if (!lead.ok) throw new Error(`the pixel answered ${lead.status}`);

      const click = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36" };
      // One stream of readers across the three loads: no window repeats another's clicks.
      const readers = readersFromManyNetworks();
      // Uncounted: a server just started answers its first seconds slowly (JIT, pool, caches).
      await load(setup.shortUrl, CONNECTIONS, {
        duration: 2,
        headers: click,
        nextHeaders: readers,
      });
      const quiet = await load(setup.shortUrl, CONNECTIONS, {
        duration: LOAD_SECONDS,
        headers: click,
        nextHeaders: readers,
      });
      const during = load(setup.shortUrl, CONNECTIONS, {
        duration: LOAD_SECONDS,
        headers: click,
        nextHeaders: readers,
      });
      await new Promise((resolve) => setTimeout(resolve, DROP_AFTER_MS));
      const started = performance.now();
      const report = await lifecycle.sweep();
      const dropMs = performance.now() - started;
      const dropped = report?.dropped.filter((name) => name.startsWith("click_events")) ?? [];
      const loaded = await during;
      record({
        database: "PostgreSQL",
        name: `a month of clicks dropped (${dropped.join(", ") || "none"}), the whole pass`,
        ratio: `${dropMs.toFixed(0)} ms`,
        target: "< 1000 ms",
        ok: dropped.length === 1 && dropMs < 1000,
      });
      for (const [name, result] of [
        ["short link → 302, no drop", quiet],
        ["short link → 302, during the drop", loaded],
      ] as const) {
        record({
          database: "PostgreSQL",
          name,
          connections: CONNECTIONS,
          rps: Math.round(result.rps),
          p50: result.latency.p50,
          p99: result.latency.p99,
          ratio: `${result.non2xx - result["3xx"]} non-3xx, ${result.errors} errors`,
          target: "p99 < 50 ms",
          ok: result.errors === 0 && result.non2xx === result["3xx"] && result.latency.p99 < 50,
        });
      }
      await explainReads(database, setup.sharerId);
    } finally {
      await buddy.stop();
    }
  } finally {
    await database.close();
    await scratch.drop();
  }
}
