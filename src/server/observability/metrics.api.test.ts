import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, count, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../db/schema";
import { createTestApp, type TestApp } from "../testing/app";
import { BROWSER_USER_AGENT, createBuddies } from "../testing/buddies";
import { type Family, parsePrometheusText, sampleValue } from "../testing/prometheus-text";
import { listenForMetrics } from "./metrics-server";

const BUDDY_METRICS = [
  "buddy_http_request_duration_seconds",
  "buddy_clicks_stored_total",
  "buddy_conversions_stored_total",
  "buddy_event_insert_batch_size",
  "buddy_event_commit_seconds",
  "buddy_mail_outbox_backlog",
];
const POOL_METRICS = [
  "buddy_db_pool_connections",
  "buddy_db_pool_idle_connections",
  "buddy_db_pool_waiting_queries",
];

describe("the metrics listener (METRICS_PORT)", () => {
  let t: TestApp;
  let listener: FastifyInstance;
  let origin: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_PORT: "0" } });
    listener = await listenForMetrics({
      registry: t.app.metrics.registry,
      host: "127.0.0.1",
      port: 0,
      log: pino({ level: "silent" }),
    });
    const address = listener.server.address();
    origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await listener.close();
    await t.close();
  });

  async function scrape(): Promise<Map<string, Family>> {
    const response = await fetch(`${origin}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(t.app.metrics.registry.contentType);
    return parsePrometheusText(await response.text());
  }

  it("is absent from the public port, even where the web app answers unknown paths with its page", async () => {
    const response = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain("buddy_");

    const webRoot = mkdtempSync(path.join(tmpdir(), "buddy-web-"));
    writeFileSync(path.join(webRoot, "index.html"), "<!doctype html><title>Buddy</title>");
    const withWeb = await createTestApp({ env: { METRICS_PORT: "0" }, webRoot });
    try {
      expect((await withWeb.app.inject({ method: "GET", url: "/dashboard" })).statusCode).toBe(200);
      const metrics = await withWeb.app.inject({ method: "GET", url: "/metrics" });
      expect(metrics.statusCode).toBe(404);
      expect(metrics.json()).toEqual({ message: "Route GET /metrics not found" });
    } finally {
      await withWeb.close();
      rmSync(webRoot, { recursive: true, force: true });
    }
  });

  it("serves every metric in the exposition format, with Node's process metrics", async () => {
    const families = await scrape();
    for (const name of BUDDY_METRICS) expect(families.has(name), name).toBe(true);
    expect(families.get("buddy_http_request_duration_seconds")?.type).toBe("histogram");
    expect(families.get("buddy_clicks_stored_total")?.type).toBe("counter");
    expect(families.get("buddy_mail_outbox_backlog")?.type).toBe("gauge");
    expect(families.has("process_cpu_seconds_total")).toBe(true);
    expect(families.has("nodejs_eventloop_lag_seconds")).toBe(true);
    // PGlite is one connection in this process: pool gauges are PostgreSQL's only.
    for (const name of POOL_METRICS) expect(families.has(name), name).toBe(t.database.kind === "postgres");
    if (t.database.kind === "postgres") {
      expect(sampleValue(families, "buddy_db_pool_connections", "buddy_db_pool_connections")).toBeGreaterThan(
        0,
      );
    }
    expect((await fetch(`${origin}/other`)).status).toBe(404);
  });

  it("times each request by method, route pattern and status code", async () => {
    const family = "buddy_http_request_duration_seconds";
    const counts = async () => {
      const families = await scrape();
      const of = (labels: Record<string, string>, sample = `${family}_count`) =>
        sampleValue(families, family, sample, { method: "GET", ...labels }) ?? 0;
      return {
        healthz: of({ route: "/healthz", status_code: "200" }),
        healthzUnderInfinity: of({ route: "/healthz", status_code: "200", le: "+Inf" }, `${family}_bucket`),
        shortLink: of({ route: "/s/:code", status_code: "404" }),
        unmatched: of({ route: "unmatched", status_code: "404" }),
      };
    };
    const before = await counts();
    await t.app.inject({ method: "GET", url: "/healthz" });
    await t.app.inject({ method: "GET", url: "/healthz" });
    await t.app.inject({ method: "GET", url: "/s/no-such-code" });
    await t.app.inject({ method: "GET", url: "/api/nowhere" });
    const after = await counts();
    expect(after).toEqual({
      healthz: before.healthz + 2,
      healthzUnderInfinity: before.healthzUnderInfinity + 2,
      shortLink: before.shortLink + 1,
      unmatched: before.unmatched + 1,
    });
  });

  it("counts stored clicks and leads, batch sizes and commit times from recordEventBatch", async () => {
    t.app.metrics.recordEventBatch("clicks", 10, 9, 0.004);
    t.app.metrics.recordEventBatch("clicks", 2, 2, 0.003);
    t.app.metrics.recordEventBatch("conversions", 3, 3, 0.002);
    const families = await scrape();
    expect(sampleValue(families, "buddy_clicks_stored_total", "buddy_clicks_stored_total")).toBe(11);
    expect(sampleValue(families, "buddy_conversions_stored_total", "buddy_conversions_stored_total")).toBe(3);
    const size = "buddy_event_insert_batch_size";
    expect(sampleValue(families, size, `${size}_count`, { kind: "clicks" })).toBe(2);
    expect(sampleValue(families, size, `${size}_sum`, { kind: "clicks" })).toBe(12);
    expect(sampleValue(families, size, `${size}_bucket`, { kind: "clicks", le: "5" })).toBe(1);
    const commit = "buddy_event_commit_seconds";
    expect(sampleValue(families, commit, `${commit}_sum`, { kind: "conversions" })).toBeCloseTo(0.002);
  });

  it("counts a batch past its deadline, the clicks it answered 503, and their late commit", async () => {
    const { shortPath } = await createBuddies(t, ["latesharer", "latepartner"]);
    const follow = () => t.app.inject({ url: shortPath, headers: { "user-agent": BROWSER_USER_AGENT } });
    // Followed once, so the link is known from memory and only the click's commit needs the database.
    expect((await follow()).statusCode).toBe(302);
    // A lock held past the group commit's 2 s deadline, as a stalled database would hold the batch.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const lock = t.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table click_events in access exclusive mode`);
      locked();
      await held;
    });
    await isLocked;
    try {
      const click = await follow();
      expect(click.statusCode).toBe(503);
      expect(click.json()).toEqual({ message: expect.any(String) });
      expect(click.headers["retry-after"]).toBeDefined();
    } finally {
      release();
      await lock;
    }
    const labels = { kind: "clicks", reason: "deadline" };
    const failed = "buddy_event_batches_failed_total";
    const refused = "buddy_event_requests_refused_total";
    const late = "buddy_events_stored_after_refusal_total";
    // Once the lock is gone the batch commits: the click is counted after all, and says so.
    await expect
      .poll(async () => sampleValue(await scrape(), late, late, { kind: "clicks" }), { timeout: 10_000 })
      .toBe(1);
    const families = await scrape();
    expect(sampleValue(families, failed, failed, labels)).toBe(1);
    expect(sampleValue(families, refused, refused, labels)).toBe(1);
  });

  it("reports when a data lifecycle pass last ran to its end, on any instance", async () => {
    const before = Date.now() / 1000;
    expect(await t.app.dataLifecycle.sweep()).not.toBeNull();
    const families = await scrape();
    const last = sampleValue(
      families,
      "buddy_data_lifecycle_last_success_timestamp_seconds",
      "buddy_data_lifecycle_last_success_timestamp_seconds",
    );
    expect(last).toBeGreaterThanOrEqual(Math.floor(before));
    expect(last).toBeLessThanOrEqual(Date.now() / 1000 + 1);
  });

  it("reads the unsent mail backlog from the database when scraped", async () => {
    const later = new Date(Date.now() + 60 * 60_000);
    await t.database.db.insert(jobs).values(
      ["a", "b"].map((name) => ({
        kind: "mail" as const,
        payload: {
          kind: "message",
          to: `${name}@example.com`,
          subject: "later",
          text: "later",
          html: "later",
        },
        runAt: later,
      })),
    );
    const [pending] = await t.database.db
      .select({ n: count() })
      .from(jobs)
      .where(and(eq(jobs.kind, "mail"), eq(jobs.status, "pending")));
    expect(pending?.n).toBeGreaterThanOrEqual(2);
    const families = await scrape();
    expect(sampleValue(families, "buddy_mail_outbox_backlog", "buddy_mail_outbox_backlog")).toBe(pending?.n);
  });
});

describe("metrics without METRICS_PORT", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("adds no timing hook and collects no process metrics", async () => {
    await t.app.inject({ method: "GET", url: "/healthz" });
    const families = parsePrometheusText(await t.app.metrics.registry.metrics());
    expect(families.get("buddy_http_request_duration_seconds")?.samples).toEqual([]);
    expect(families.has("process_cpu_seconds_total")).toBe(false);
    // The group-commit writer still counts: a scrape is the only thing missing.
    t.app.metrics.recordEventBatch("conversions", 1, 1, 0.001);
    const after = parsePrometheusText(await t.app.metrics.registry.metrics());
    expect(sampleValue(after, "buddy_conversions_stored_total", "buddy_conversions_stored_total")).toBe(1);
  });
});
