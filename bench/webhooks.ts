// Webhooks at scale (issue 28, part 7): conversions at 10⁴ a minute fanned out to a receiver in
// this process by one instance; then, on PostgreSQL, queued bursts delivered by one instance (the
// receiver answering at once), and by one instance and then two (the receiver 100 ms away).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { openDatabase, rowsOf } from "../src/server/db/client";
import { type BuddyProcess, startBuddy } from "../src/server/testing/buddy-process";
import { createScratchDatabase } from "../src/server/testing/database";
import { browserAgent, clickIdOf, must, setUpPartners } from "../src/server/testing/instances/partners";
import { startMailReceiver } from "../src/server/testing/mail-receiver";
import { pinServer, processCpuMs, record } from "./harness";

/** 10⁴ conversions a minute (issue 28). */
const CONVERSIONS_PER_SECOND = 10_000 / 60;
/** How long the steady load lasts: BENCH_WEBHOOK_SECONDS. */
const LOAD_SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 30);
/** Messages queued at once for the capacity runs: BENCH_WEBHOOK_BURST. */
const BURST = Number(process.env.BENCH_WEBHOOK_BURST ?? 10_000);
/** Delivery keeps up: what is left when the load stops is delivered within this… */
const DRAIN_MS = 2_000;
/** …and 99 % of the messages arrive within this of their conversion being sent ("a few seconds"). */
const P99_MS = 3_000;
/** A receiver this far away (its answer's delay) for the comparison of one instance and two… */
const FAR_RECEIVER_MS = 100;
/** …where two instances deliver a queued burst at least this many times as fast as one. */
const SHARED_RATIO = 1.5;
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);

type Receipt = { at: number; body: string };

/**
 * A company's endpoint: answers 200 (at once, or after `delayMs` like a receiver across the
 * internet) and keeps when each message (by its webhook-id) arrived, and its body, in this
 * process's clock.
 */
async function startReceiver() {
  const received = new Map<string, Receipt>();
  let duplicates = 0;
  const state = { delayMs: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const at = performance.now();
      const id = String(request.headers["webhook-id"]);
      if (received.has(id)) duplicates++;
      else received.set(id, { at, body: Buffer.concat(chunks).toString() });
      const answer = () => response.writeHead(200, { "content-type": "text/plain" }).end("ok");
      if (state.delayMs > 0) setTimeout(answer, state.delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (pathname: string) => `http://127.0.0.1:${port}${pathname}`,
    received,
    state,
    get duplicates() {
      return duplicates;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) return false;
    await sleep(5);
  }
  return true;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number);

/** The server as the bench runs it, with webhooks allowed to a receiver on this machine. */
async function startInstance(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  appSecret: string;
  mail: BuddyProcess["mail"];
}) {
  const buddy = await startBuddy({
    ...options,
    stdio: "capture",
    env: { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info", OUTBOUND_ALLOW_PRIVATE: "true" },
    nodeArgs: NODE_ARGS,
  });
  pinServer(buddy.pid);
  return buddy;
}

/** Two Buddies, each with an endpoint for conversion.created, the partner's API key and a click. */
async function setUp(buddy: BuddyProcess, receiver: Receiver) {
  const partners = await setUpPartners(buddy.origin, buddy.mail, { prefix: "hook" });
  for (const [token, pathname] of [
    [partners.sharerToken, "/sharer"],
    [partners.partnerToken, "/partner"],
  ] as const) {
    await must(buddy.origin, "/api/webhooks", token, {
      method: "POST",
      body: JSON.stringify({ url: receiver.url(pathname), events: ["conversion.created"] }),
    });
  }
  const { key } = await must<{ key: string }>(buddy.origin, "/api/api-keys", partners.partnerToken, {
    method: "POST",
    body: JSON.stringify({ name: "webhooks bench" }),
  });
  const click = await fetch(partners.shortUrl, {
    redirect: "manual",
    headers: { "user-agent": browserAgent("webhooks") },
  });
  const clickId = clickIdOf(click);
  if (!clickId) throw new Error("webhooks bench: the short link gave no click id");
  return { key, clickId };
}

/**
 * Conversions at `perSecond` for `seconds`, sent open loop (on a timer, whether or not earlier
 * ones have been answered): the time each was sent, by its event id, and how many were stored.
 */
async function convert(
  origin: string,
  setup: { key: string; clickId: string },
  options: {
    perSecond: number;
    seconds: number;
    prefix: string;
    sentAt: Map<string, number>;
    onStored?: () => void;
  },
) {
  let sent = 0;
  let stored = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  const total = Math.round(options.perSecond * options.seconds);
  const one = () => {
    const eventId = `${options.prefix}-${sent++}`;
    options.sentAt.set(eventId, performance.now());
    const request = fetch(`${origin}/api/marketing/conversion`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": setup.key },
      body: JSON.stringify({ clickId: setup.clickId, type: "purchase", value: 1, eventId }),
    })
      .then(async (response) => {
        await response.arrayBuffer();
        if (response.status === 201) {
          stored++;
          options.onStored?.();
        } else failed++;
      })
      .catch(() => {
        failed++;
      })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  };
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * options.perSecond) + 1);
    while (sent < due) one();
    await sleep(10);
  }
  const lastSent = performance.now();
  await Promise.all([...inFlight]);
  return { sent, stored, failed, seconds: (lastSent - started) / 1000, answeredAt: performance.now() };
}

/**
 * Issue 28's load on one instance: conversions at 10⁴ a minute, each a message to both
 * organizations' endpoints. Every message is timed from its conversion's request to its arrival.
 */
async function steadyLoad(
  database: string,
  buddy: BuddyProcess,
  receiver: Receiver,
  setup: { key: string; clickId: string },
) {
  const sentAt = new Map<string, number>();
  // A few first, so the first connections and compilations are not in the figures.
  const warm = await convert(buddy.origin, setup, { perSecond: 50, seconds: 1, prefix: "warm", sentAt });
  await waitUntil(() => receiver.received.size >= warm.stored * 2, 30_000);
  const before = receiver.received.size;
  const startedAt = performance.now();
  const cpuBefore = processCpuMs(buddy.pid);

  // The backlog, sampled: messages of stored conversions not yet received.
  let storedSoFar = 0;
  let maxBacklog = 0;
  const backlogOf = () => storedSoFar * 2 - (receiver.received.size - before);
  const sampler = setInterval(() => {
    maxBacklog = Math.max(maxBacklog, backlogOf());
  }, 250);
  const load = convert(buddy.origin, setup, {
    perSecond: CONVERSIONS_PER_SECOND,
    seconds: LOAD_SECONDS,
    prefix: "load",
    sentAt,
    onStored: () => {
      storedSoFar++;
    },
  });
  const result = await load;
  const expected = result.stored * 2;
  const backlogAtEnd = expected - (receiver.received.size - before);
  const drained = await waitUntil(() => receiver.received.size - before >= expected, 60_000);
  const drainMs = performance.now() - result.answeredAt;
  clearInterval(sampler);
  const cpuAfter = processCpuMs(buddy.pid);

  const latencies: number[] = [];
  let lastAt = startedAt;
  for (const receipt of receiver.received.values()) {
    const { data } = JSON.parse(receipt.body) as { data: { eventId: string } };
    if (!data.eventId.startsWith("load-")) continue;
    const sent = sentAt.get(data.eventId);
    if (sent !== undefined) latencies.push(receipt.at - sent);
    lastAt = Math.max(lastAt, receipt.at);
  }
  latencies.sort((a, b) => a - b);
  const p50 = Math.round(percentile(latencies, 0.5));
  const p99 = Math.round(percentile(latencies, 0.99));
  const delivered = latencies.length;
  const rate = delivered / ((lastAt - startedAt) / 1000);
  const conversionRate = result.sent / result.seconds;
  const cpuPerMessage =
    cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / Math.max(1, delivered);
  console.log(
    `${database} webhooks, one instance: ${result.sent} conversions in ${result.seconds.toFixed(1)} s (${conversionRate.toFixed(0)}/s, ${result.stored} stored, ${result.failed} failed), ${delivered} messages delivered (${rate.toFixed(0)}/s), p50 ${p50} ms, p99 ${p99} ms, backlog at most ${maxBacklog} during the load and ${backlogAtEnd} at its end, ${drained ? `drained ${Math.round(drainMs)} ms later` : "NOT drained within 60 s"}, ${receiver.duplicates} received twice${cpuPerMessage === null ? "" : `, server CPU ${cpuPerMessage.toFixed(0)} µs a message (its conversion's share included)`}`,
  );
  record({
    database,
    name: "webhooks: 10⁴ conversions/min → 2 endpoints, one instance",
    rps: Math.round(rate),
    p50,
    p99,
    ratio: `${Math.round(conversionRate)} conversions/s; backlog ≤ ${maxBacklog}, ${backlogAtEnd} at the end, drained in ${Math.round(drainMs)} ms`,
    cpu: cpuPerMessage === null ? undefined : cpuPerMessage.toFixed(0),
    target: `p99 < ${P99_MS} ms, drained < ${DRAIN_MS} ms`,
    ok:
      result.failed === 0 &&
      conversionRate >= CONVERSIONS_PER_SECOND * 0.95 &&
      drained &&
      delivered === expected &&
      receiver.duplicates === 0 &&
      drainMs < DRAIN_MS &&
      p99 < P99_MS,
  });
}

/**
 * BURST messages queued at once, straight into the outbox (copies of the load's messages to each
 * endpoint, with new ids and event ids), then every instance woken by a conversion of its own:
 * delivered messages per second, from the queue's commit to the last arrival. The table is
 * analyzed with the insert, as autovacuum soon would be: a claim planned on statistics from
 * before the burst reads every due job instead of the first ones (bench/README.md).
 */
async function burst(
  databaseUrl: string,
  instances: readonly BuddyProcess[],
  receiver: Receiver,
  setup: { key: string; clickId: string },
  label: string,
) {
  const direct = await openDatabase({ databaseUrl, dataDir: null });
  const before = receiver.received.size;
  const cpuBefore = instances.map((instance) => processCpuMs(instance.pid));
  let queuedAt: number;
  try {
    const perEndpoint = Math.ceil(BURST / 2);
    const result = await direct.db.transaction(async (tx) => {
      const inserted = await tx.execute(sql`
      insert into jobs (id, kind, partition_key, payload)
      select 'msg_' || replace(gen_random_uuid()::text, '-', ''), 'webhook', j.partition_key,
        jsonb_set(j.payload, '{message,data,eventId}', to_jsonb(${label}::text || '-' || g))
      from (select distinct on (partition_key) partition_key, payload from jobs
        where kind = 'webhook' order by partition_key, created_at) j
      cross join generate_series(1, ${perEndpoint}) g
      returning 1`);
      // Its statistics count the rows inserted by its own transaction, and commit with them.
      await tx.execute(sql`analyze jobs`);
      return inserted;
    });
    queuedAt = performance.now();
    const queued = rowsOf(result).length;
    // Each instance's worker is woken by the commit of a conversion it stored.
    await Promise.all(
      instances.map((instance, index) =>
        fetch(`${instance.origin}/api/marketing/conversion`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": setup.key },
          body: JSON.stringify({
            clickId: setup.clickId,
            type: "purchase",
            value: 1,
            eventId: `${label}-wake-${index}`,
          }),
        }).then((response) => response.arrayBuffer()),
      ),
    );
    const expected = queued + instances.length * 2;
    const drained = await waitUntil(() => receiver.received.size - before >= expected, 120_000);
    let lastAt = queuedAt;
    for (const receipt of [...receiver.received.values()].slice(before))
      lastAt = Math.max(lastAt, receipt.at);
    const delivered = receiver.received.size - before;
    const seconds = (lastAt - queuedAt) / 1000;
    const cpu = instances.map((instance, index) => {
      const from = cpuBefore[index];
      const to = processCpuMs(instance.pid);
      return from === null || from === undefined || to === null ? null : to - from;
    });
    return { delivered, expected, drained, seconds, rate: delivered / seconds, cpu };
  } finally {
    await direct.close();
  }
}

/** Each instance's CPU time over a run: both did their share of the work. */
function cpuShares(cpu: readonly (number | null)[]) {
  return cpu.map((ms) => (ms === null ? "?" : `${(ms / 1000).toFixed(1)} s`)).join(" + ");
}

function report(database: string, label: string, result: Awaited<ReturnType<typeof burst>>) {
  console.log(
    `${database} webhooks, ${label}: ${result.delivered} of ${result.expected} queued messages delivered in ${result.seconds.toFixed(1)} s (${result.rate.toFixed(0)}/s); server CPU ${cpuShares(result.cpu)}`,
  );
}

export async function benchWebhooks(database: "PostgreSQL" | "PGlite", serverUrl: string | undefined) {
  const scratch =
    serverUrl === undefined ? null : await createScratchDatabase(serverUrl, "buddy_bench_webhooks");
  const dataDir = mkdtempSync(path.join(tmpdir(), "buddy-bench-webhooks-"));
  const receiver = await startReceiver();
  const mail = await startMailReceiver();
  const appSecret = randomBytes(32).toString("base64url");
  const instances: BuddyProcess[] = [];
  try {
    const start = async () => {
      const instance = await startInstance({
        databaseUrl: scratch?.url,
        // PGlite's files; each PostgreSQL instance has its own scratch directory all the same.
        dataDir: scratch ? mkdtempSync(path.join(dataDir, "instance-")) : dataDir,
        appSecret,
        mail,
      });
      instances.push(instance);
      return instance;
    };
    const first = await start();
    const setup = await setUp(first, receiver);
    await steadyLoad(database, first, receiver, setup);
    // PGlite lives inside its one server process: only PostgreSQL is shared by instances.
    if (!scratch) return;

    // One instance's capacity, with the receiver answering at once: what is left of the machine.
    const capacity = await burst(scratch.url, [first], receiver, setup, "capacity");
    report(database, "one instance, receiver answering at once", capacity);
    record({
      database,
      name: `webhooks: ${BURST} queued, one instance, receiver at once`,
      rps: Math.round(capacity.rate),
      ratio: `${capacity.delivered} delivered in ${capacity.seconds.toFixed(1)} s`,
      target: `≥ ${Math.round(CONVERSIONS_PER_SECOND * 2)}/s`,
      ok: capacity.drained && receiver.duplicates === 0 && capacity.rate >= CONVERSIONS_PER_SECOND * 2,
    });
    // One instance, then two, to a receiver FAR_RECEIVER_MS away: delivery is then bound by the
    // requests each instance has in flight (perPartition per endpoint), which a second one adds,
    // rather than by the CPU both instances share on this machine.
    receiver.state.delayMs = FAR_RECEIVER_MS;
    const one = await burst(scratch.url, [first], receiver, setup, "far1");
    report(database, `one instance, receiver ${FAR_RECEIVER_MS} ms away`, one);
    const second = await start();
    const two = await burst(scratch.url, [first, second], receiver, setup, "far2");
    report(database, `two instances, receiver ${FAR_RECEIVER_MS} ms away`, two);
    const ratio = two.rate / one.rate;
    record({
      database,
      name: `webhooks: ${BURST} queued, one instance, receiver ${FAR_RECEIVER_MS} ms away`,
      rps: Math.round(one.rate),
      ratio: `${one.delivered} delivered in ${one.seconds.toFixed(1)} s`,
      target: "(for the ratio below)",
      ok: one.drained && receiver.duplicates === 0,
    });
    record({
      database,
      name: `webhooks: ${BURST} queued, two instances, receiver ${FAR_RECEIVER_MS} ms away`,
      rps: Math.round(two.rate),
      ratio: `${ratio.toFixed(2)} × one instance; ${two.delivered} delivered in ${two.seconds.toFixed(1)} s; CPU ${cpuShares(two.cpu)}`,
      target: `≥ ${SHARED_RATIO} × one instance`,
      ok: two.drained && receiver.duplicates === 0 && ratio >= SHARED_RATIO,
    });
  } finally {
    for (const instance of instances) {
      const code = await instance.stop();
      if (code !== 0)
        console.warn(`${database} webhooks: an instance exited with ${code}\n${instance.output()}`);
    }
    await mail.close();
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}
