// Issue 38: how long migration 0024 takes to move existing events into partitioned tables. A scratch
// PostgreSQL database is migrated to 0023, seeded with BENCH_MIGRATION_CLICKS clicks (10⁷ by
// default) spread over 13 months, then migrated to the end, timed.
// Run alone: `npx tsx --tsconfig tsconfig.node.json bench/partition-migration.ts`.
import { openPostgres } from "../src/server/db/client";
import { runMigrations } from "../src/server/db/migrate";
import {
  createScratchDatabase,
  MIGRATIONS_FOLDER,
  migrationsBefore,
  POSTGRES_SERVER_URL,
} from "../src/server/testing/database";
import { seedOldClicks } from "./lifecycle-seed";

const PARTITIONING_MIGRATION = "0024_partitioned_events";

export type MigrationFigures = {
  clicks: number;
  seedSeconds: number;
  migrationSeconds: number;
  tableMb: number;
};

export async function benchPartitionMigration(serverUrl: string, clicks: number): Promise<MigrationFigures> {
  const scratch = await createScratchDatabase(serverUrl, "bench_migration");
  const database = await openPostgres(scratch.url);
  const before = migrationsBefore(PARTITIONING_MIGRATION);
  try {
    await runMigrations(database, before.folder);
    const seedSeconds = await database.withLock(0, (db) =>
      seedOldClicks(db, { clicks, fromDaysAgo: 395, toDaysAgo: 0 }),
    );
    const started = performance.now();
    await runMigrations(database, MIGRATIONS_FOLDER);
    const migrationSeconds = (performance.now() - started) / 1000;
    const result = await database.db.execute<{ mb: string; rows: string }>(`
      select (select sum(pg_total_relation_size(inhrelid)) from pg_inherits
          where inhparent = 'click_events'::regclass) / 1048576.0 as mb,
        (select count(*) from click_events) as rows`);
    const [sizes] = (result as unknown as { rows: { mb: string; rows: string }[] }).rows;
    if (Number(sizes?.rows) !== clicks)
      throw new Error(`${sizes?.rows} clicks after the migration, not ${clicks}`);
    return { clicks, seedSeconds, migrationSeconds, tableMb: Number(sizes?.mb) };
  } finally {
    before.remove();
    await database.close();
    await scratch.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const clicks = Number(process.env.BENCH_MIGRATION_CLICKS ?? 10_000_000);
  const figures = await benchPartitionMigration(process.env.DATABASE_URL ?? POSTGRES_SERVER_URL, clicks);
  console.log(
    `migration ${PARTITIONING_MIGRATION}: ${figures.clicks} clicks moved into monthly partitions in ` +
      `${figures.migrationSeconds.toFixed(1)} s (seeded in ${figures.seedSeconds.toFixed(1)} s; ` +
      `${figures.tableMb.toFixed(0)} MB with indexes)`,
  );
}
