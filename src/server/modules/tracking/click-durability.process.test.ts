import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { startBuddy } from "../../test-buddy-process";
import { startMailReceiver } from "../../test-mail-receiver";

/**
 * The redirect answers 302 only once its click is in the journal; a restart stores what the
 * journal holds. Kill the process with SIGKILL in the middle of a stream of clicks: every click
 * that got its 302 must be stored, once.
 */
describe("click durability", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "buddy-crash-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("keeps every click that got a 302 when the server is killed mid-stream", async () => {
    const mail = await startMailReceiver();
    const first = await startBuddy({ dataDir, mail });
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
        ctaUrl: "https://crashbuddy.example/go",
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
    const workers = Array.from({ length: 20 }, (_, n) => worker(n));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await first.kill();
    stop = true;
    await Promise.all(workers);
    expect(answered.length).toBeGreaterThan(50);

    // It starts again on the same data…
    const second = await startBuddy({ dataDir, mail });
    expect((await fetch(`${second.origin}/api/me`)).status).toBe(401);
    await second.stop();
    await mail.close();

    // …and every answered click is there.
    const db = new PGlite(path.join(dataDir, "pglite"));
    const { rows } = await db.query<{ id: string }>("select id from click_events");
    await db.close();
    const stored = new Set(rows.map((row) => row.id));
    const missing = answered.filter((id) => !stored.has(id));
    expect(missing).toEqual([]);
    expect(stored.size).toBeGreaterThanOrEqual(answered.length);
  }, 120_000);
});
