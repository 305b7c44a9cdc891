import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, rowsOf } from "../db/client";
import { runMigrations } from "../db/migrate";
import { UNAVAILABLE_MESSAGE } from "../plugins/errors";
import { STARTING_MESSAGE } from "../plugins/start-gate";
import { authHeader, createTestApp, signUpVerified, type TestApp } from "../testing/app";
import { freePort } from "../testing/buddy-process";
import { createScratchDatabase, MIGRATIONS_FOLDER, POSTGRES_SERVER_URL } from "../testing/database";
import { parsePrometheusText } from "../testing/prometheus-text";
import { createTcpForwarder, postgresTarget, type TcpForwarder } from "../testing/tcp-forwarder";

type LogEntry = { level: number; msg: string; err?: { stack?: string }; reason?: string };

const probe = (t: TestApp, url: "/healthz" | "/readyz") => t.app.inject({ method: "GET", url });

/** The `buddy_redis_up` gauge as a scrape would read it, or undefined without the gauge. */
async function redisUp(t: TestApp): Promise<number | undefined> {
  const families = parsePrometheusText(await t.app.metrics.registry.metrics());
  return families.get("buddy_redis_up")?.samples[0]?.value;
}

describe("the health checks of a started instance", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("answers /healthz 200 without caching", async () => {
    const response = await probe(t, "/healthz");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("answers /readyz 200 once started, with the database migrated", async () => {
    const response = await probe(t, "/readyz");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ready" });
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("answers /readyz 503 while the newest migration is not applied", async () => {
    const db = t.database.db;
    const [row] = rowsOf<{ id: number; hash: string; created_at: string }>(
      await db.execute(sql`
        delete from drizzle.__drizzle_migrations
        where created_at = (select max(created_at) from drizzle.__drizzle_migrations)
        returning *`),
    );
    if (!row) throw new Error("no migration recorded");
    const response = await probe(t, "/readyz");
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ message: "Not ready: database migrations are not applied" });
    await db.execute(
      sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${row.id}, ${row.hash}, ${row.created_at})`,
    );
    expect((await probe(t, "/readyz")).statusCode).toBe(200);
  });

  it("is not in the public API document, and the public port has no /metrics", async () => {
    const document = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    expect(Object.keys(document.paths)).not.toContain("/readyz");
    expect((await t.app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(404);
  });

  it("has no Redis gauge without REDIS_URL: nothing to watch", async () => {
    expect(await redisUp(t)).toBeUndefined();
  });

  it("answers /readyz 503 from the moment draining starts, and still serves everything else", async () => {
    const { token } = await signUpVerified(t, "draining@example.com");
    t.app.lifecycle.drain();
    const response = await probe(t, "/readyz");
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ message: "Not ready: shutting down" });
    expect((await probe(t, "/healthz")).statusCode).toBe(200);
    const me = await t.app.inject({ method: "GET", url: "/api/me", headers: authHeader(token) });
    expect(me.statusCode).toBe(200);
  });
});

describe("an instance whose start-up has not finished", () => {
  let t: TestApp;
  let finishStartUp: () => void;
  beforeAll(async () => {
    const held = new Promise<void>((resolve) => {
      finishStartUp = resolve;
    });
    t = await createTestApp({ migrate: () => held, awaitStartUp: false });
  });
  afterAll(() => t.close());

  it("is alive, not ready, and answers every other route 503 with Retry-After until it has started", async () => {
    expect((await probe(t, "/healthz")).statusCode).toBe(200);
    const readyz = await probe(t, "/readyz");
    expect(readyz.statusCode).toBe(503);
    expect(readyz.json()).toEqual({ message: "Not ready: starting up" });
    for (const request of [
      { method: "GET" as const, url: "/api/me" },
      {
        method: "POST" as const,
        url: "/api/auth",
        payload: { email: "a@example.com", password: "x", mode: "login" },
      },
      { method: "GET" as const, url: "/s/abc" },
    ]) {
      const response = await t.app.inject(request);
      expect(response.statusCode, request.url).toBe(503);
      expect(response.headers["retry-after"]).toBe("1");
      expect(response.json()).toEqual({ message: STARTING_MESSAGE });
    }

    finishStartUp();
    await t.app.lifecycle.started;
    expect(t.app.lifecycle.state).toBe("ready");
    expect((await probe(t, "/readyz")).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/me" })).statusCode).toBe(401);
  });
});

describe("an instance on a PostgreSQL server it cannot reach", () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let forwarder: TcpForwarder;
  let t: TestApp;
  const log: LogEntry[] = [];
  beforeAll(async () => {
    scratch = await createScratchDatabase(POSTGRES_SERVER_URL, "buddy_health");
    const migrated = await openPostgres(scratch.url);
    await runMigrations(migrated, MIGRATIONS_FOLDER);
    await migrated.close();
    forwarder = await createTcpForwarder(postgresTarget(scratch.url));
    // Through the forwarder, which refuses connections until the test lets them through.
    const database = await openPostgres(postgresTarget(scratch.url).through(forwarder.port), () => {});
    t = await createTestApp({
      database,
      awaitStartUp: false,
      logger: { level: "warn", stream: { write: (line: string) => log.push(JSON.parse(line)) } },
    });
  });
  afterAll(async () => {
    await t.close();
    await t.database.close();
    await forwarder.close();
    await scratch.drop();
  });

  it("waits for the database at start-up, warning, and becomes ready once it answers", async () => {
    await expect
      .poll(() => log.filter((entry) => entry.msg.startsWith("waiting for the database")).length)
      .toBeGreaterThanOrEqual(2);
    expect(t.app.lifecycle.state).toBe("starting");
    expect((await probe(t, "/readyz")).statusCode).toBe(503);
    await forwarder.relay();
    await t.app.lifecycle.started;
    expect((await probe(t, "/readyz")).statusCode).toBe(200);
  });

  it("answers 503 with Retry-After while the database is gone, logs a warning without a stack, and recovers by itself", async () => {
    const { token } = await signUpVerified(t, "outage@example.com");
    await forwarder.refuse();
    const logged = log.length;

    const me = await t.app.inject({ method: "GET", url: "/api/me", headers: authHeader(token) });
    expect(me.statusCode).toBe(503);
    expect(me.headers["retry-after"]).toBe("1");
    expect(me.json()).toEqual({ message: UNAVAILABLE_MESSAGE });
    const warning = log.slice(logged).find((entry) => entry.msg === "database unavailable: answered 503");
    expect(warning?.level).toBe(40);
    expect(warning?.reason).toMatch(/ECONNREFUSED|ECONNRESET|Connection terminated/);
    expect(JSON.stringify(warning)).not.toContain("    at ");

    const readyz = await probe(t, "/readyz");
    expect(readyz.statusCode).toBe(503);
    expect(readyz.json()).toEqual({ message: "Not ready: the database does not answer" });

    await forwarder.relay();
    expect(
      (await t.app.inject({ method: "GET", url: "/api/me", headers: authHeader(token) })).statusCode,
    ).toBe(200);
    expect((await probe(t, "/readyz")).statusCode).toBe(200);
    expect(log.filter((entry) => entry.level >= 50)).toEqual([]);
  });
});

describe("an instance with REDIS_URL", () => {
  it("is ready, and shows buddy_redis_up 1, while Redis answers", async () => {
    const t = await createTestApp({
      env: { REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379" },
    });
    try {
      expect((await probe(t, "/readyz")).statusCode).toBe(200);
      expect(await redisUp(t)).toBe(1);
    } finally {
      await t.close();
    }
  });

  it("stays ready while Redis does not answer: buddy_redis_up 0, and one warning however often it retries", async () => {
    const log: LogEntry[] = [];
    // Start-up waits up to 5 s for Redis: ioredis has tried to connect many times by then.
    const t = await createTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
      logger: { level: "info", stream: { write: (line: string) => log.push(JSON.parse(line)) } },
    });
    try {
      const response = await probe(t, "/readyz");
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: "ready" });
      expect(await redisUp(t)).toBe(0);
      const warnings = log.filter((entry) => entry.level === 40 && entry.msg.startsWith("Redis:"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.msg).toMatch(/ECONNREFUSED.*per instance until it is back/);
    } finally {
      await t.close();
    }
  });
});
