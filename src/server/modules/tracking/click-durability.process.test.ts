import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuddy } from "../../test-buddy-process";
import { createScratchDatabase } from "../../test-database";
import { startMailReceiver } from "../../test-mail-receiver";

/** Like every API test: PGlite, or the PostgreSQL server named by TEST_DATABASE_URL (CI). */
const serverUrl = process.env.TEST_DATABASE_URL;

/**
 * The redirect answers 302 only once its click is in the journal; a restart stores what the
 * journal holds. Kill the process with SIGKILL in the middle of a stream of clicks: every click
 * that got its 302 must be stored, once. On PostgreSQL the server runs with DATABASE_URL, so the
 * journal is also fdatasync'd in the background: that path is killed too.
 */
describe(`click durability on ${serverUrl ? "PostgreSQL" : "PGlite"}`, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "buddy-crash-"));
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  beforeAll(async () => {
    if (serverUrl) scratch = await createScratchDatabase(serverUrl, "buddy_crash");
  });
  afterAll(async () => {
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The ids of every click stored, read straight from the database the server used. */
  async function storedClickIds(): Promise<Set<string>> {
    if (scratch) {
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ id: string }>("select id from click_events");
        return new Set(rows.map((row) => row.id));
      } finally {
        await client.end();
      }
    }
    const db = new PGlite(path.join(dataDir, "pglite"));
    try {
      const { rows } = await db.query<{ id: string }>("select id from click_events");
      return new Set(rows.map((row) => row.id));
    } finally {
      await db.close();
    }
  }

  it("keeps every click that got a 302 when the server is killed mid-stream", async () => {
    const mail = await startMailReceiver();
    const databaseUrl = scratch?.url;
    const first = await startBuddy({ dataDir, mail, databaseUrl });
    const api = async <T = Record<string, unknown>>(
      url: string,
      token: string,
      init: RequestInit = {},
    ): Promise<T> => {
      const response = await fetch(`${first.origin}${url}`, {
        ...init,
        headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...init.headers },
      });
      return (await response.json()) as T;
    };
    const sharer = await first.createOrganization("crashsharer", "An analytics tool for crash tests");
    const buddy = await first.createOrganization("crashbuddy", "A help desk for crash tests");
    const buddyId = ((await api("/api/me", buddy)).user as { organizationId: string }).organizationId;
    await api("/api/relationships", sharer, {
      method: "POST",
      body: JSON.stringify({ organizationId: buddyId, type: "complement" }),
    });
    await api("/api/marketing/collateral", buddy, {
      method: "POST",
      body: JSON.stringify({
        name: "Crash",
        description: "Test",
        ctaText: "Go",
        ctaUrl: "https://crashbuddy.bench.example/go",
        status: "active",
      }),
    });
    const [item] = (await api(`/api/marketing/collateral?organizationId=${buddyId}`, sharer)) as Array<{
      trackedUrl: string;
    }>;
    const { shortUrl } = await api<{ shortUrl: string }>("/api/short-url", sharer, {
      method: "POST",
      body: JSON.stringify({ longUrl: item?.trackedUrl }),
    });

    const answered: string[] = [];
    let stop = false;
    const worker = async (n: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const response = await fetch(shortUrl, {
            redirect: "manual",
            headers: { "user-agent": `Mozilla/5.0 Chrome/130 worker-${n}-${i}` },
          });
          if (response.status !== 302) continue;
          const id = new URL(response.headers.get("location") ?? "").searchParams.get("bclickid");
          if (id) answered.push(id);
        } catch {
          return; // the server is gone
        }
      }
    };
    // On PostgreSQL a quiet server stores its clicks as fast as they come, so the kill could find
    // the journal already drained. Another session holds click_events against writes during the
    // stream (as a database falling behind would): every answered click is then only journaled
    // when the process dies.
    const blocker = scratch ? new pg.Client({ connectionString: scratch.url }) : undefined;
    if (blocker) {
      await blocker.connect();
      await blocker.query("begin");
      await blocker.query("lock table click_events in exclusive mode");
    }
    const workers = Array.from({ length: 20 }, (_, n) => worker(n));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await first.kill();
    stop = true;
    await Promise.all(workers);
    expect(answered.length).toBeGreaterThan(50);
    if (blocker) {
      // Reads pass the lock: nothing answered is in the table. The dead server's sessions are
      // ended, so its insert waiting on the lock cannot commit afterwards: the restart alone can
      // store the clicks.
      expect((await storedClickIds()).size).toBe(0);
      await blocker.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      );
      await blocker.query("rollback");
      await blocker.end();
    }

    // It starts again on the same data…
    const second = await startBuddy({ dataDir, mail, databaseUrl });
    expect((await fetch(`${second.origin}/api/me`)).status).toBe(401);
    await second.stop();
    await mail.close();

    // …and every answered click is there.
    const stored = await storedClickIds();
    const missing = answered.filter((id) => !stored.has(id));
    expect(missing).toEqual([]);
    expect(stored.size).toBeGreaterThanOrEqual(answered.length);
  }, 120_000);
});
