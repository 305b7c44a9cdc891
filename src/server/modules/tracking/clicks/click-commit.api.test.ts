import { eq, inArray } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Db } from "../../../db/client";
import * as schema from "../../../db/schema";
import { clickEvents, pairDailyStats } from "../../../db/schema";
import { createTestApp, type TestApp } from "../../../testing/app";
import { BROWSER_USER_AGENT, createBuddies } from "../../../testing/buddies";
import { openTestDatabase } from "../../../testing/database";
import { storeClicks } from "./click-store";

/** The same database, through a Drizzle instance that notes every statement it sends. */
function countingDatabase(database: Database, statements: string[]): Database & { end(): Promise<void> } {
  const logger = { logQuery: (query: string) => statements.push(query) };
  const options = { schema, casing: "snake_case" as const, logger };
  if (database.pglite)
    return {
      ...database,
      db: drizzlePglite({ client: database.pglite, ...options }) as unknown as Db,
      end: async () => {},
    };
  const pool = new pg.Pool({ connectionString: database.connectionString });
  // The test database is dropped WITH (FORCE) at the end: a connection still closing then is cut,
  // which is no failure of the test (the app's own pool listens for the same reason).
  pool.on("error", () => {});
  return {
    ...database,
    db: drizzleNodePg({ client: pool, ...options }) as unknown as Db,
    end: () => pool.end(),
  };
}

const clickInserts = (statements: string[]) =>
  statements.filter((statement) => /insert into "click_events"/.test(statement)).length;

let database: Database;
let counted: ReturnType<typeof countingDatabase>;
const statements: string[] = [];
let t: TestApp;
let buddies: Awaited<ReturnType<typeof createBuddies>>;

beforeAll(async () => {
  database = await openTestDatabase();
  counted = countingDatabase(database, statements);
  t = await createTestApp({ database: counted });
  buddies = await createBuddies(t, ["committer", "gatherer"]);
});
afterAll(async () => {
  await t.close();
  await counted.end();
  await database.close();
});

const verifiedClicks = async () =>
  (await database.db.select().from(pairDailyStats))
    .filter((row) => row.sourceOrgId === buddies.partner.organizationId)
    .reduce((sum, row) => sum + row.clicks, 0);

describe("group commit of clicks", () => {
  it("stores concurrent clicks in a few INSERT statements, each committed before its 302", async () => {
    const before = await verifiedClicks();
    statements.length = 0;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.app.inject({
          url: buddies.shortPath,
          // A visitor and a network source each: every click is a person's first, so every one
          // counts (CONTRACT §5 counts 3 a day per network source).
          headers: { "user-agent": BROWSER_USER_AGENT },
          remoteAddress: `198.51.${i + 1}.7`,
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 302));
    const ids = answers.map(
      (answer) => new URL(answer.headers.location as string).searchParams.get("bclickid") ?? "",
    );
    const inserts = clickInserts(statements);
    expect(inserts).toBeGreaterThanOrEqual(1);
    expect(inserts).toBeLessThanOrEqual(3);
    // Read through another connection: what the 302s promised is committed.
    const stored = await database.db.select().from(clickEvents).where(inArray(clickEvents.id, ids));
    expect(stored).toHaveLength(100);
    expect(await verifiedClicks()).toBe(before + 100);
  });

  it("skips a click id already stored (ON CONFLICT) and does not count it again", async () => {
    const [row] = await database.db
      .select()
      .from(clickEvents)
      .where(eq(clickEvents.sourceOrgId, buddies.partner.organizationId))
      .limit(1);
    if (!row) throw new Error("no click stored");
    const before = await verifiedClicks();
    const again = {
      id: row.id,
      short_code: row.shortCode,
      relationship_id: row.relationshipId,
      collateral_id: row.collateralId,
      source_org_id: row.sourceOrgId,
      target_org_id: row.targetOrgId,
      occurred_at: row.occurredAt.toISOString(),
      method: row.method,
      visitor_hash: row.visitorHash,
      user_agent: row.userAgent,
      referrer_host: row.referrerHost,
      bot: row.bot,
      bot_reason: row.botReason,
      duplicate: row.duplicate,
      verified: true,
      reason: "counted" as const,
    };
    expect(await storeClicks(counted.db, [again, again])).toBe(0);
    expect(await verifiedClicks()).toBe(before);
  });
});
