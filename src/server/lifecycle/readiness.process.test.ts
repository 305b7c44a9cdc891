import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exitOf, freePort } from "../testing/buddy-process";
import { createScratchDatabase, POSTGRES_SERVER_URL } from "../testing/database";
import { parsePrometheusText } from "../testing/prometheus-text";
import { slowPost } from "../testing/slow-request";
import { createTcpForwarder, postgresTarget, type TcpForwarder } from "../testing/tcp-forwarder";

const root = path.resolve(import.meta.dirname, "../../..");
const DRAIN_SECONDS = 2;

type Answer = { status: number; headers: Headers; body: string };

/** A request on a new connection each time, as a balancer's health check makes. */
async function get(origin: string, url: string): Promise<Answer> {
  const response = await fetch(`${origin}${url}`, { headers: { connection: "close" } });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

describe("an instance behind a load balancer (the built server, on PostgreSQL)", () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let forwarder: TcpForwarder;
  let child: ChildProcess;
  let output = "";
  let origin: string;
  let port: number;
  let metricsPort: number;
  const dataDir = path.join(tmpdir(), `buddy-no-data-dir-${crypto.randomUUID()}`);

  beforeAll(async () => {
    scratch = await createScratchDatabase(POSTGRES_SERVER_URL, "buddy_lifecycle");
    // Refuses connections until the test lets them through: PostgreSQL "not up yet".
    forwarder = await createTcpForwarder(postgresTarget(scratch.url));
    port = await freePort();
    metricsPort = await freePort();
    origin = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ["dist/server/main.js"], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        PUBLIC_URL: origin,
        DATABASE_URL: postgresTarget(scratch.url).through(forwarder.port),
        APP_SECRET: "process-test-secret-process-test-secret-0123",
        // Never made nor read with DATABASE_URL and APP_SECRET.
        DATA_DIR: dataDir,
        METRICS_PORT: String(metricsPort),
        SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
        RATE_LIMIT_PER_IP: "0",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      output += chunk;
    });
  });

  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill("SIGKILL");
      await exitOf(child);
    }
    await forwarder.close();
    await scratch.drop();
  });

  it("listens at once, alive but not ready while its database is unreachable, then ready once it answers", async () => {
    await expect
      .poll(async () => (await get(origin, "/healthz").catch(() => null))?.status, { timeout: 30_000 })
      .toBe(200);
    const readyz = await get(origin, "/readyz");
    expect(readyz.status).toBe(503);
    expect(JSON.parse(readyz.body)).toEqual({ message: "Not ready: starting up" });
    const me = await get(origin, "/api/me");
    expect(me.status).toBe(503);
    expect(me.headers.get("retry-after")).toBe("1");
    await expect.poll(() => output, { timeout: 10_000 }).toContain("waiting for the database");
    expect(output).not.toContain("Buddy is running");

    await forwarder.relay();
    await expect.poll(async () => (await get(origin, "/readyz")).status, { timeout: 20_000 }).toBe(200);
    expect(JSON.parse((await get(origin, "/readyz")).body)).toEqual({ status: "ready" });
    await expect.poll(() => output).toContain("Buddy is running");
    expect((await get(origin, "/api/me")).status).toBe(401);
    expect(existsSync(path.join(dataDir, "app-secret"))).toBe(false);
  });

  it("serves Prometheus metrics on METRICS_PORT only", async () => {
    const metrics = await get(`http://127.0.0.1:${metricsPort}`, "/metrics");
    expect(metrics.status).toBe(200);
    const families = parsePrometheusText(metrics.body);
    expect(families.has("buddy_http_request_duration_seconds")).toBe(true);
    expect(families.has("buddy_db_pool_connections")).toBe(true);
    expect((await get(origin, "/metrics")).status).toBe(404);
  });

  it("answers /readyz 503 from SIGTERM on, finishes a request in flight, then exits 0", async () => {
    const signup = slowPost(port, "/api/auth", {
      email: "in-flight@example.com",
      password: "Sup3r-secret!",
      mode: "signup",
    });
    // The request's headers and half its body are there before the signal.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const exited = exitOf(child);
    child.kill("SIGTERM");

    await expect
      .poll(async () => (await get(origin, "/readyz")).body, { interval: 20, timeout: DRAIN_SECONDS * 500 })
      .toBe(JSON.stringify({ message: "Not ready: shutting down" }));
    // Still serving everything else while a balancer takes it out.
    expect((await get(origin, "/api/me")).status).toBe(401);

    // The second half arrives after the drain, once closing has begun.
    await expect
      .poll(() => output, { timeout: DRAIN_SECONDS * 1000 + 5_000 })
      .toContain("shutting down: finishing in-flight requests");
    expect((await get(origin, "/healthz").catch((error: Error) => error)) instanceof Error).toBe(true);
    signup.finish();
    const answer = await signup.answer;
    expect(answer.status, answer.body).toBe(201);
    expect(await exited).toBe(0);
    if (process.env.SHOW_PROCESS_LOG) console.info(output);
  });
});

describe("a start-up that fails for another reason than an unreachable database", () => {
  it("exits 1 and says why, instead of waiting", async () => {
    const url = new URL(POSTGRES_SERVER_URL);
    url.pathname = `/buddy_missing_${crypto.randomUUID().replaceAll("-", "")}`;
    const child = spawn(process.execPath, ["dist/server/main.js"], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: String(await freePort()),
        DATABASE_URL: url.toString(),
        APP_SECRET: "process-test-secret-process-test-secret-0123",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    expect(await exitOf(child)).toBe(1);
    expect(output).toContain("Buddy failed to start");
    expect(output).toContain("start-up failed (migrations)");
    expect(output).toMatch(/database "buddy_missing_\w+" does not exist/);
  });
});

describe("SIGTERM while start-up still waits for the database", () => {
  it("stops waiting and exits 0 at once: no traffic was ever sent to drain", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ["dist/server/main.js"], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        DATABASE_URL: postgresTarget(POSTGRES_SERVER_URL).through(await freePort()),
        APP_SECRET: "process-test-secret-process-test-secret-0123",
        SHUTDOWN_DRAIN_SECONDS: "60",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "ignore", "ignore"],
    });
    const origin = `http://127.0.0.1:${port}`;
    await expect
      .poll(async () => (await get(origin, "/healthz").catch(() => null))?.status, { timeout: 30_000 })
      .toBe(200);
    expect((await get(origin, "/readyz")).status).toBe(503);
    const exited = exitOf(child);
    const signalled = Date.now();
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
  });
});
