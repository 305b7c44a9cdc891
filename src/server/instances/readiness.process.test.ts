import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuddyProcess, startBuddy } from "../test-buddy-process";
import { type LocalPostgres, startLocalPostgres, waitFor } from "../test-local-servers";
import { type MailReceiver, startMailReceiver } from "../test-mail-receiver";
import { sleep } from "./test-click-load";
import { printOutputOnFailure, report } from "./test-process-suite";

const get = async (url: string) => {
  const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
};

/**
 * What a balancer asks an instance (issue 16 §3): /healthz says the process lives, /readyz that it
 * can serve. Not ready while its database cannot be reached at start (it waits, it does not exit),
 * nor from the moment SIGTERM arrives, while it goes on answering what it is sent.
 */
describe("an instance's readiness", () => {
  let postgres: LocalPostgres;
  let mail: MailReceiver;
  const instances: BuddyProcess[] = [];
  // Named, not made: the server makes it; nothing is left behind by merely listing the tests.
  const dataDir = path.join(tmpdir(), `buddy-readiness-${crypto.randomUUID()}`);
  const appSecret = crypto.randomUUID() + crypto.randomUUID();
  beforeAll(async () => {
    [postgres, mail] = await Promise.all([startLocalPostgres(), startMailReceiver()]);
  }, 60_000);
  afterAll(async () => {
    for (const instance of instances) await instance.kill();
    await postgres?.destroy();
    await mail?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  printOutputOnFailure(() => instances.map((instance) => instance.output()).join("\n"));

  it("lives but is not ready while its database is unreachable at start, and is ready once it answers", async () => {
    await postgres.stop({ mode: "fast" });
    const buddy = await startBuddy({
      databaseUrl: postgres.url,
      appSecret,
      dataDir,
      mail,
      stdio: "capture",
      started: async (origin) => (await fetch(`${origin}/healthz`)).status === 200,
    });
    instances.push(buddy);
    expect(await get(`${buddy.origin}/healthz`)).toEqual({ status: 200, body: { status: "ok" } });
    for (let i = 0; i < 10; i++) {
      expect(await get(`${buddy.origin}/readyz`)).toEqual({
        status: 503,
        body: { message: expect.any(String) },
      });
      await sleep(100);
    }

    await postgres.start();
    const startedAt = Date.now();
    await waitFor(
      "/readyz answering 200",
      async () => (await get(`${buddy.origin}/readyz`)).status === 200,
      20_000,
    );
    report("ready after the database", { readyAfterMs: Date.now() - startedAt });
    expect(await get(`${buddy.origin}/readyz`)).toEqual({ status: 200, body: { status: "ready" } });
    expect((await get(`${buddy.origin}/api/me`)).status).toBe(401);
    await buddy.kill();
  }, 60_000);

  it("is not ready from SIGTERM on, answers requests in flight and during the drain, then exits 0", async () => {
    await postgres.start();
    const buddy = await startBuddy({
      databaseUrl: postgres.url,
      appSecret,
      dataDir,
      mail,
      stdio: "capture",
      env: { SHUTDOWN_DRAIN_SECONDS: "2", LOG_LEVEL: "info" },
    });
    instances.push(buddy);
    await waitFor(
      "/readyz answering 200",
      async () => (await get(`${buddy.origin}/readyz`)).status === 200,
      5000,
    );
    // Sign-up hashes a password (tens of ms): SIGTERM lands while it is being answered.
    const pending = fetch(`${buddy.origin}/api/auth`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "inflight@drain.example", password: "Sup3r-secret!", mode: "signup" }),
    });
    await waitFor("the sign-up in flight", () => buddy.output().includes('"url":"/api/auth"'), 5000, 5);
    const signalledAt = Date.now();
    const exited = buddy.stop();
    await waitFor(
      "/readyz answering 503",
      async () => (await get(`${buddy.origin}/readyz`)).status === 503,
      1000,
      10,
    );
    const unreadyAfterMs = Date.now() - signalledAt;
    expect((await pending).status).toBe(201);
    // Still serving while the balancer takes it out of rotation.
    expect((await get(`${buddy.origin}/api/me`)).status).toBe(401);
    expect((await get(`${buddy.origin}/readyz`)).body).toEqual({ message: expect.any(String) });
    expect(await exited).toBe(0);
    report("SIGTERM", { unreadyAfterMs, exitedAfterMs: Date.now() - signalledAt });
    expect(unreadyAfterMs).toBeLessThan(500);
  }, 60_000);
});
