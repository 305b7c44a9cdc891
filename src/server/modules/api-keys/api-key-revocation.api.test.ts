import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CHANNELS, LISTENER_APPLICATION_NAME } from "../../db/change-notifications";
import { apiKeys } from "../../db/schema";
import { createOrganization, createTestApp, type TestApp } from "../../testing/app";
import { pgliteLacks } from "../../testing/database";

// Two instances of the app on one database, as two processes behind a load balancer would be.
let a: TestApp;
let b: TestApp;
let admin: Awaited<ReturnType<typeof createOrganization>>;
beforeAll(async () => {
  // A slow first reconnection, so the test can look at the listener while it is down.
  a = await createTestApp({ listener: { retryFirstMs: 1_000 } });
  b = await createTestApp({ database: a.database, mail: a.mail, listener: { retryFirstMs: 1_000 } });
  admin = await createOrganization(a, "revoker");
});
afterAll(async () => {
  await b.close();
  await a.close();
});

async function createKey(name = "key") {
  const created = await a.app.inject({
    method: "POST",
    url: "/api/api-keys",
    headers: admin.headers,
    payload: { name },
  });
  return created.json() as { id: string; key: string };
}
const revoke = (id: string) =>
  a.app.inject({ method: "DELETE", url: `/api/api-keys/${id}`, headers: admin.headers });
/** 404 (no Buddy yet) proves the key was accepted; 401 that it was refused. */
const callAds = async (t: TestApp, key: string) =>
  (await t.app.inject({ url: "/api/ads", headers: { "x-api-key": key } })).statusCode;
const nextNotification = (t: TestApp) =>
  new Promise<string>((resolve) => {
    const stop = t.notifications.subscribe(CHANNELS.apiKeyRevoked, {
      onNotify(payload) {
        stop();
        resolve(payload);
      },
      onGap() {},
    });
  });
const lastUsed = async (id: string) =>
  (await a.database.db.select().from(apiKeys).where(eq(apiKeys.id, id)))[0]?.lastUsedAt?.getTime() ?? null;

describe("API keys answered from memory", () => {
  it("stops a cached key at once on the instance that revoked it", async () => {
    const { id, key } = await createKey();
    expect(await callAds(a, key)).toBe(404);
    expect(await callAds(a, key)).toBe(404);
    expect(a.app.apiKeys.cacheSizes().live).toBeGreaterThan(0);
    expect((await revoke(id)).statusCode).toBe(204);
    expect(await callAds(a, key)).toBe(401);
  });

  it("stops a key cached on another instance as soon as the revocation's notification lands", async () => {
    const { id, key } = await createKey();
    expect(await callAds(b, key)).toBe(404);
    const before = b.app.apiKeys.cacheSizes().live;
    const heard = nextNotification(b);
    expect((await revoke(id)).statusCode).toBe(204);
    // PGlite delivers at commit, inside the DELETE; PostgreSQL over b's listening connection.
    await heard;
    expect(b.app.apiKeys.cacheSizes().live).toBe(before - 1);
    expect(await callAds(b, key)).toBe(401);
  });

  it("writes lastUsed at most once a minute per key, across instances", async () => {
    const { id, key } = await createKey();
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    try {
      expect(await callAds(a, key)).toBe(404);
      await a.app.apiKeys.settled();
      expect(await lastUsed(id)).toBe(start);

      vi.setSystemTime(start + 30_000);
      expect(await callAds(a, key)).toBe(404);
      expect(await callAds(b, key)).toBe(404);
      await Promise.all([a.app.apiKeys.settled(), b.app.apiKeys.settled()]);
      expect(await lastUsed(id)).toBe(start);

      vi.setSystemTime(start + 61_000);
      expect(await callAds(b, key)).toBe(404);
      expect(await callAds(a, key)).toBe(404);
      await Promise.all([a.app.apiKeys.settled(), b.app.apiKeys.settled()]);
      expect(await lastUsed(id)).toBe(start + 61_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it("never answers 5xx to a malformed key", async () => {
    for (const key of [" ", "bk_live_", "x".repeat(10_000), `bk_live_${"é".repeat(43)}`, "bk_live_a b"]) {
      const response = await a.app.inject({ url: "/api/ads", headers: { "x-api-key": key } });
      expect(response.statusCode, key.slice(0, 20)).toBe(401);
    }
  });

  it.skipIf(pgliteLacks("a listener connection of its own to cut"))(
    "asks the database while the listener's connection is down, and forgets the cache when it is back",
    async () => {
      const first = await createKey("first");
      const second = await createKey("second");
      expect(await callAds(a, first.key)).toBe(404);
      expect(await callAds(a, second.key)).toBe(404);

      await a.database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
            where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
      );
      await vi.waitFor(() => expect(a.notifications.isLive()).toBe(false), { timeout: 2_000, interval: 5 });
      // Revoked behind the instances' backs: no notification, as if it had been missed.
      await a.database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, first.id));
      expect(await callAds(a, first.key)).toBe(401);
      expect(a.notifications.isLive()).toBe(false);

      await a.database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, second.id));
      await vi.waitFor(() => expect(a.notifications.isLive()).toBe(true), { timeout: 5_000, interval: 20 });
      expect(await callAds(a, second.key)).toBe(401);
    },
  );
});
