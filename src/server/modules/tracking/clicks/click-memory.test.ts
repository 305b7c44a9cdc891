import { randomUUID } from "node:crypto";
import net from "node:net";
import { Redis, type RedisOptions } from "ioredis";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createClickClassifier, type HitContext } from "./click-classifier";
import type { MemoryLog } from "./click-memory";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `buddy:click:test:${randomUUID()}:`;
const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
/** Fails at once instead of queueing commands through reconnects. */
const FAIL_FAST: RedisOptions = { maxRetriesPerRequest: 0, enableOfflineQueue: false };

const clients: Redis[] = [];
const servers: net.Server[] = [];
afterAll(async () => {
  const cleaner = new Redis(REDIS_URL);
  const keys = await cleaner.keys(`${PREFIX}*`);
  if (keys.length) await cleaner.del(...keys);
  cleaner.disconnect();
  for (const client of clients) client.disconnect();
  for (const server of servers) server.close();
});

function client(url: string, options: RedisOptions = {}) {
  const redis = new Redis(url, options);
  // The outage is the subject here; ioredis would otherwise print every reconnect error.
  redis.on("error", () => {});
  clients.push(redis);
  return redis;
}

async function listen(onConnection: (socket: net.Socket) => void = () => {}) {
  const server = net.createServer(onConnection);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

async function closedPort() {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One visitor's hits, each logging through `log` as through its request's logger. */
function person(log: MemoryLog): (overrides?: Partial<HitContext>) => HitContext {
  const visitorHash = randomUUID();
  return (overrides = {}) => ({
    method: "GET",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    referrerHost: null,
    visitorHash,
    linkKey: "rel-1|col-1",
    mailKey: "org-sender",
    now: T0,
    log,
    ...overrides,
  });
}

describe("the click classifier when Redis is unreachable", () => {
  it("answers every click from process memory and logs the outage once", async () => {
    const log = { warn: vi.fn() };
    const redis = client(`redis://127.0.0.1:${await closedPort()}`, FAIL_FAST);
    const classify = createClickClassifier({ redis, keyPrefix: PREFIX });
    const hit = person(log);

    expect(await classify(hit())).toMatchObject({ verified: true });
    expect(await classify(hit({ now: T0 + 1000 }))).toMatchObject({ duplicate: true, verified: false });
    expect(await classify(hit({ linkKey: "rel-1|col-2", now: T0 + 1200 }))).toMatchObject({
      botReason: "burst",
    });
    for (let i = 0; i < 20; i++) await classify(hit({ now: T0 + 2000 + i }));
    expect(log.warn).toHaveBeenCalledTimes(1);
  });

  it("judges sources' allowances and sign-ins in process memory too, a sign-in never failing", async () => {
    const log = { warn: vi.fn() };
    const redis = client(`redis://127.0.0.1:${await closedPort()}`, FAIL_FAST);
    const classify = createClickClassifier({ redis, keyPrefix: PREFIX });
    const source = randomUUID();
    // The sign-in's own Redis write fails; it is logged, and the process memory keeps it.
    await classify.rememberSignIn(["org-own"], source, log);
    expect(await classify(person(log)({ source, mailKey: "org-own" }))).toMatchObject({
      reason: "own_click",
    });
    const reasons: string[] = [];
    for (let i = 0; i < 4; i++)
      reasons.push(
        (await classify(person(log)({ source, pairKey: "org-sender>x", now: T0 + i * 2000 }))).reason,
      );
    expect(reasons).toEqual(["counted", "counted", "counted", "source_cap"]);
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining("sign-in"));
  });

  it("does not keep a click waiting on a Redis that accepts but never answers", async () => {
    const log = { warn: vi.fn() };
    const port = await listen();
    const redis = client(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: 0 });
    const classify = createClickClassifier({ redis, keyPrefix: PREFIX, redisTimeoutMs: 50 });
    const hit = person(log);

    let started = performance.now();
    expect(await classify(hit())).toMatchObject({ verified: true });
    expect(performance.now() - started).toBeLessThan(1000);
    // Right after a timeout, clicks skip Redis instead of each waiting for it.
    started = performance.now();
    expect(await classify(hit({ now: T0 + 10 }))).toMatchObject({ duplicate: true });
    expect(performance.now() - started).toBeLessThan(25);
    expect(log.warn).toHaveBeenCalledTimes(1);
  });

  it("goes back to the shared memory once Redis is there again, and says so once", async () => {
    const log = { warn: vi.fn() };
    const redis = client(REDIS_URL);
    const other = createClickClassifier({ redis: client(REDIS_URL), keyPrefix: PREFIX });
    const classify = createClickClassifier({ redis, keyPrefix: PREFIX });
    const hit = person(log);

    const ended = new Promise((resolve) => redis.once("end", resolve));
    redis.disconnect();
    await ended;
    expect(await classify(hit())).toMatchObject({ verified: true });
    expect(log.warn).toHaveBeenCalledTimes(1);

    await redis.connect();
    expect(await classify(hit({ linkKey: "rel-1|col-2", now: T0 + 60_000 }))).toMatchObject({
      verified: true,
    });
    expect(await classify(hit({ linkKey: "rel-1|col-3", now: T0 + 120_000 }))).toMatchObject({
      verified: true,
    });
    expect(log.warn).toHaveBeenCalledTimes(2);
    expect(log.warn).toHaveBeenLastCalledWith(expect.stringContaining("Redis is back"));
    // That click went to Redis, where another instance sees it.
    expect(await other(hit({ linkKey: "rel-1|col-2", now: T0 + 180_000 }))).toMatchObject({
      duplicate: true,
    });
  });
});
