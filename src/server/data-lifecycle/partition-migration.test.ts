import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, rowsOf } from "../db/client";
import { runMigrations } from "../db/migrate";
import { storeClicks } from "../modules/tracking/clicks/click-store";
import { MIGRATIONS_FOLDER, migrationsBefore, openTestDatabase } from "../testing/database";
import { partitionsOf } from "../testing/partitions";

/**
 * Migration 0024 over a database that already holds events: they move into the partitioned
 * tables (each in its period's partition), the roll-ups count each click once, and a click stored
 * again after the migration is still recognised as the same one.
 */
const OLD = "2026-01-15T10:00:00.000Z";
const NOW_ISH = new Date(Date.now() - 60_000).toISOString();
/** A finished job of three days ago (older ones were deleted by the sweep before 0024). */
const JOB_AT = new Date(Date.now() - 3 * 86_400_000).toISOString();

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase({ migrated: false });
  const before = migrationsBefore("0024_partitioned_events");
  try {
    await runMigrations(database, before.folder);
    const db = database.db;
    for (const [id, at] of [
      ["old-click", OLD],
      ["new-click", NOW_ISH],
    ]) {
      await db.execute(sql`
        insert into click_events (id, relationship_id, collateral_id, source_org_id, target_org_id, occurred_at,
          method, visitor_hash, bot, duplicate, verified, reason)
        values (${id}, 'r', 'c', 'org-a', 'org-b', ${at}::timestamptz, 'GET', 'v', false, false, true, 'counted')`);
    }
    await db.execute(sql`
      insert into jobs (id, kind, payload, status, created_at, finished_at)
      values ('old-job', 'mail', '{}', 'done', ${JOB_AT}::timestamptz, ${JOB_AT}::timestamptz)`);
    await db.execute(sql`
      insert into security_log (id, action, created_at) values ('old-entry', 'sign_in', ${NOW_ISH}::timestamptz)`);
    await runMigrations(database, MIGRATIONS_FOLDER);
  } finally {
    before.remove();
  }
});
afterAll(() => database?.close());

const partitionOf = async (table: "click_events" | "jobs" | "security_log", id: string) =>
  Object.values(await partitionsOf(database.db, table, [id]));

describe("migration 0024 over existing events", () => {
  it("moves each row into the partition of its period, from the oldest row's on", async () => {
    expect(await partitionOf("click_events", "old-click")).toEqual(["click_events_p2026_01"]);
    const month = NOW_ISH.slice(0, 7).replace("-", "_");
    expect(await partitionOf("click_events", "new-click")).toEqual([`click_events_p${month}`]);
    expect(await partitionOf("jobs", "old-job")).toEqual([
      `jobs_p${JOB_AT.slice(0, 10).replaceAll("-", "_")}`,
    ]);
    expect(await partitionOf("security_log", "old-entry")).toHaveLength(1);
    const parents = rowsOf<{ name: string }>(
      await database.db.execute(sql`
        select relname as name from pg_class where relkind = 'p' order by relname`),
    ).map((row) => row.name);
    expect(parents).toEqual(
      expect.arrayContaining(["click_events", "jobs", "security_log", "webhook_attempts"]),
    );
    expect(parents).not.toContain("conversions");
  });

  it("counts the moved clicks once in the roll-ups, and a click stored again after it not at all", async () => {
    const days = async () =>
      rowsOf<{ day: string; clicks: number }>(
        await database.db.execute(sql`
          select day::text as day, clicks from pair_daily_stats
          where source_org_id = 'org-a' and target_org_id = 'org-b' order by day`),
      );
    const before = await days();
    expect(before.map((row) => row.clicks)).toEqual([1, 1]);
    const again = await storeClicks(database.db, [
      {
        id: "new-click",
        short_code: null,
        relationship_id: "r",
        collateral_id: "c",
        source_org_id: "org-a",
        target_org_id: "org-b",
        occurred_at: NOW_ISH,
        method: "GET",
        visitor_hash: "v",
        user_agent: null,
        referrer_host: null,
        bot: false,
        bot_reason: null,
        duplicate: false,
        verified: true,
        reason: "counted",
      },
    ]);
    expect(again).toBe(0);
    expect(await days()).toEqual(before);
  });
});
