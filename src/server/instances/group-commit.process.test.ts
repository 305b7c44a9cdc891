import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuddyProcess, startBuddy } from "../test-buddy-process";
import { type LocalPostgres, query, startLocalPostgres } from "../test-local-servers";
import { type MailReceiver, startMailReceiver } from "../test-mail-receiver";
import { missingClickIds } from "./test-click-load";
import { browserAgent, clickIdOf, type Partners, setUpPartners } from "./test-partners";
import { printOutputOnFailure, report } from "./test-process-suite";

/**
 * Group commit (issue 16 §2): while one insert is in flight, the clicks that arrive gather for the
 * next. N clicks at once are stored, each before its 302, by a few INSERT statements, counted by
 * PostgreSQL itself (pg_stat_statements), each an INSERT … ON CONFLICT DO NOTHING.
 */
describe("clicks stored by group commit", () => {
  let postgres: LocalPostgres;
  let mail: MailReceiver;
  let buddy: BuddyProcess | undefined;
  let partners: Partners;
  // Named, not made: the server makes it; nothing is left behind by merely listing the tests.
  const dataDir = path.join(tmpdir(), `buddy-group-commit-${crypto.randomUUID()}`);
  beforeAll(async () => {
    [postgres, mail] = await Promise.all([
      startLocalPostgres({ shared_preload_libraries: "pg_stat_statements" }),
      startMailReceiver(),
    ]);
    await query(postgres.url, "create extension pg_stat_statements");
    buddy = await startBuddy({
      databaseUrl: postgres.url,
      appSecret: crypto.randomUUID() + crypto.randomUUID(),
      dataDir,
      mail,
      stdio: "capture",
    });
    partners = await setUpPartners(buddy.origin, mail);
  }, 60_000);
  afterAll(async () => {
    await buddy?.kill();
    await postgres?.destroy();
    await mail?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  printOutputOnFailure(() => buddy?.output());

  it("stores N concurrent clicks, each before its 302, with a few INSERT statements", async () => {
    const N = 200;
    await query(postgres.url, "select pg_stat_statements_reset()");
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        fetch(partners.shortUrl, {
          redirect: "manual",
          headers: { "user-agent": browserAgent(`group-${i}`) },
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(N).fill(302));
    const ids = responses.map((response) => clickIdOf(response) ?? "");
    const missing = await missingClickIds(postgres.url, ids);

    const inserts = await query<{ query: string; calls: string }>(
      postgres.url,
      // Anywhere in the statement: the events and the roll-ups may be one statement (a CTE).
      `select query, calls from pg_stat_statements where query ~* 'insert\\s+into\\s+"?click_events\\M'`,
    );
    const calls = inserts.reduce((sum, row) => sum + Number(row.calls), 0);
    const [stored] = await query<{ count: string }>(postgres.url, "select count(*) from click_events");
    report("group commit", {
      clicks: N,
      insertStatements: calls,
      rowsStored: Number(stored?.count),
      missing: missing.length,
    });
    expect(missing.length, "answered before stored").toBe(0);
    expect(Number(stored?.count)).toBe(N);
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThanOrEqual(N / 5);
    for (const { query: text } of inserts)
      expect(text).toMatch(/on\s+conflict\s*(\([^)]*\)\s*)?do\s+nothing/i);
  });
});
