import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { clickEvents, pairDailyStats } from "../../db/schema";
import { openTestDatabase } from "../../test-database";
import { createClickRecorder } from "./click-recorder";
import { CLICK_COLUMNS, type StoredClick } from "./click-store";

let database: Database;
const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "click-recorder-"));
  dirs.push(dir);
  return dir;
};
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

let next = 0;
const click = (source: string, overrides: Partial<StoredClick> = {}): StoredClick => ({
  id: `click-${next++}`,
  short_code: null,
  relationship_id: "rel",
  collateral_id: "col",
  source_org_id: source,
  target_org_id: `${source}-target`,
  occurred_at: "2026-11-20T10:00:00.000Z",
  method: "GET",
  visitor_hash: "v",
  user_agent: "Mozilla/5.0",
  referrer_host: null,
  bot: false,
  bot_reason: null,
  duplicate: false,
  verified: true,
  ...overrides,
});
const storedFor = async (source: string) =>
  (await database.db.select().from(clickEvents)).filter((row) => row.sourceOrgId === source);
const countedFor = async (source: string) =>
  (await database.db.select().from(pairDailyStats))
    .filter((row) => row.sourceOrgId === source)
    .reduce((sum, row) => sum + row.clicks, 0);

describe("click recorder", () => {
  it("journals clicks with exactly the columns of click_events", () => {
    expect(Object.keys(click("s")).sort()).toEqual([...CLICK_COLUMNS].sort());
  });

  it("stores recorded clicks and counts only verified ones in the day's roll-up", async () => {
    const recorder = createClickRecorder(database.db, freshDir(), { syncJournal: false });
    await Promise.all([
      recorder.record(click("s1")),
      recorder.record(click("s1")),
      recorder.record(click("s1", { bot: true, bot_reason: "head", method: "HEAD", verified: false })),
      recorder.record(click("s1", { duplicate: true, verified: false })),
    ]);
    await recorder.settle();
    const rows = await storedFor("s1");
    expect(rows).toHaveLength(4);
    expect(rows.find((row) => row.method === "HEAD")).toMatchObject({ bot: true, botReason: "head" });
    expect(await countedFor("s1")).toBe(2);
    await recorder.close();
  });

  it("stores, while the server is busy, in small batches that still get through", async () => {
    const recorder = createClickRecorder(database.db, freshDir(), {
      syncJournal: false,
      busy: () => true,
      busyBatch: 3,
      busyIntervalMs: 10,
    });
    await Promise.all(Array.from({ length: 10 }, () => recorder.record(click("s2"))));
    expect(recorder.pendingCount()).toBeGreaterThan(0);
    await expect.poll(() => recorder.pendingCount(), { timeout: 5_000 }).toBe(0);
    expect(await storedFor("s2")).toHaveLength(10);
    await recorder.close();
  });

  it("stores after a crash what the journal holds, once, however often it is replayed", async () => {
    const dir = freshDir();
    // Never idle: nothing reaches the database before the "crash".
    const crashed = createClickRecorder(database.db, dir, {
      syncJournal: true,
      busy: () => true,
      busyBatch: 0,
    });
    const clicks = Array.from({ length: 5 }, () => click("s3"));
    await Promise.all(clicks.map((c) => crashed.record(c)));
    expect(await storedFor("s3")).toHaveLength(0);
    // One of them did reach the database before the crash.
    const partial = createClickRecorder(database.db, freshDir(), { syncJournal: false });
    await partial.record(clicks[0] as StoredClick);
    await partial.close();

    const restarted = createClickRecorder(database.db, dir, { syncJournal: true });
    expect(await restarted.recover()).toBe(4);
    expect((await storedFor("s3")).map((row) => row.id).sort()).toEqual(clicks.map((c) => c.id).sort());
    expect(await countedFor("s3")).toBe(5);
    expect(readdirSync(dir).filter((name) => name.endsWith(".jsonl"))).toEqual([]);
    expect(await restarted.recover()).toBe(0);
    await restarted.close();
  });

  it("drains every waiting click on close", async () => {
    const recorder = createClickRecorder(database.db, freshDir(), {
      syncJournal: false,
      busy: () => true,
      busyBatch: 0,
    });
    await Promise.all(Array.from({ length: 7 }, () => recorder.record(click("s4"))));
    await recorder.close();
    expect(await storedFor("s4")).toHaveLength(7);
  });
});
