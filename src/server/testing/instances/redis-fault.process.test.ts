import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuddyProcess, freePort, startBuddy } from "../buddy-process";
import { type LocalPostgres, type LocalRedis, startLocalPostgres, startLocalRedis } from "../local-servers";
import { type MailReceiver, startMailReceiver } from "../mail-receiver";
import { parsePrometheusText } from "../prometheus-text";
import { type Answer, countByStatus, missingClickIds, startClickLoad } from "./click-load";
import { type Partners, setUpPartners } from "./partners";
import { printOutputOnFailure, report } from "./process-suite";

/** Wrong sign-ins, one after another, each for a new address: each answer kept with its time. */
function startSignInLoad(origin: string) {
  const answers: Answer[] = [];
  let running = true;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const sent = Date.now();
      let status = 0;
      let message: string | undefined;
      try {
        const response = await fetch(`${origin}/api/auth`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            email: `guess-${i}@guesser.example`,
            password: "Wrong-pass1!",
            mode: "login",
          }),
          signal: AbortSignal.timeout(10_000),
        });
        status = response.status;
        message = (await response.text()).slice(0, 200);
      } catch (error) {
        message = String(error);
      }
      answers.push({ at: Date.now(), ms: Date.now() - sent, status, clickId: null, servedBy: null, message });
    }
  })();
  return {
    answers,
    async stop() {
      running = false;
      await loop;
    },
  };
}

const failed = (answers: Answer[]) => answers.filter((answer) => answer.status === 0 || answer.status >= 500);
/** Written on every click (the repeat memory) and every sign-in (its client's allowance). */
const USED_PREFIXES = ["buddy:click", "rl:login-client"];
const slowest = (answers: Answer[]) => Math.max(0, ...answers.map((answer) => answer.ms));
/** Far above a sign-in's password hash and the click memory's 200 ms Redis timeout. */
const SLOWEST_MS = 2000;
const between = (answers: Answer[], from: number, to: number) =>
  answers.filter((answer) => answer.at >= from && answer.at < to);

/** The instance's `buddy_redis_up` gauge, as Prometheus would scrape it. */
async function redisUp(metricsOrigin: string): Promise<number | undefined> {
  const text = await (await fetch(`${metricsOrigin}/metrics`)).text();
  return parsePrometheusText(text).get("buddy_redis_up")?.samples[0]?.value;
}

const readyzStatus = async (origin: string) => (await fetch(`${origin}/readyz`)).status;

/**
 * Redis holds the rate limits and the repeat/burst memory of clicks (issue 16 §5). When it goes
 * away each instance falls back to its own memory, as the README says: no request fails, clicks
 * go on answering 302. When it is back on the same port (empty: it keeps nothing), the instance
 * uses it again within seconds, without a restart.
 */
describe("Redis stopped and started again under load", () => {
  let postgres: LocalPostgres;
  let redis: LocalRedis;
  let mail: MailReceiver;
  let buddy: BuddyProcess | undefined;
  let partners: Partners;
  let metricsOrigin: string;
  // Named, not made: the server makes it; nothing is left behind by merely listing the tests.
  const dataDir = path.join(tmpdir(), `buddy-redis-fault-${crypto.randomUUID()}`);
  beforeAll(async () => {
    [postgres, redis, mail] = await Promise.all([
      startLocalPostgres(),
      startLocalRedis(),
      startMailReceiver(),
    ]);
    const metricsPort = await freePort();
    metricsOrigin = `http://127.0.0.1:${metricsPort}`;
    buddy = await startBuddy({
      databaseUrl: postgres.url,
      redisUrl: redis.url,
      appSecret: crypto.randomUUID() + crypto.randomUUID(),
      dataDir,
      mail,
      // The per-client limit on: counted in Redis, but high enough never to refuse this test.
      env: { RATE_LIMIT_PER_IP: "100000", METRICS_PORT: String(metricsPort) },
      stdio: "capture",
    });
    partners = await setUpPartners(buddy.origin, mail);
  }, 120_000);
  afterAll(async () => {
    await buddy?.kill();
    await Promise.all([postgres?.destroy(), redis?.destroy(), mail?.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  });
  printOutputOnFailure(() => buddy?.output().split("\n").slice(-60).join("\n"));

  it("answers without a 5xx and stays ready while Redis is gone, and uses it again once it is back", async () => {
    const origin = buddy?.origin ?? "";
    const clicks = startClickLoad(partners.shortUrl, { concurrency: 3, tag: "redis" });
    const signIns = startSignInLoad(origin);
    let stoppedAt = 0;
    let startedAt = 0;
    let usedAgainAt = 0;
    let keysBefore: string[] = [];
    let keysAfter: string[] = [];
    let upBefore: number | undefined;
    let upDuring: number | undefined;
    let downShownAfterMs = 0;
    let upShownAfterMs = 0;
    const readyzDuringOutage: number[] = [];
    try {
      await clicks.waitForAnswer("a first click", (answer) => answer.status === 302);
      await sleep(1000);
      keysBefore = await redis.keys();
      upBefore = await redisUp(metricsOrigin);
      await redis.stop();
      stoppedAt = Date.now();
      // A balancer keeps the instance: it serves everything without Redis.
      while (Date.now() - stoppedAt < 3000) {
        readyzDuringOutage.push(await readyzStatus(origin));
        if (upDuring === undefined || upDuring === 1) {
          upDuring = await redisUp(metricsOrigin);
          downShownAfterMs = Date.now() - stoppedAt;
        }
        await sleep(200);
      }
      await redis.start();
      startedAt = Date.now();
      // Both the click memory and the sign-in limits write to it again.
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        keysAfter = await redis.keys();
        if (USED_PREFIXES.every((prefix) => keysAfter.some((key) => key.startsWith(`${prefix}:`)))) break;
        await sleep(100);
      }
      usedAgainAt = Date.now();
      while ((await redisUp(metricsOrigin)) !== 1 && Date.now() < deadline) await sleep(100);
      upShownAfterMs = Date.now() - startedAt;
      await sleep(500);
    } finally {
      await clicks.stop();
      await signIns.stop();
    }

    const prefixes = (keys: string[]) =>
      [...new Set(keys.map((key) => key.split(/[:{]/).slice(0, 2).join(":")))].sort();
    const outageClicks = between(clicks.answers, stoppedAt, startedAt);
    const outageSignIns = between(signIns.answers, stoppedAt, startedAt);
    const ids = clicks.redirectedIds();
    const missing = await missingClickIds(postgres.url, ids);
    report("Redis fault", {
      clicks: countByStatus(clicks.answers),
      clicksDuringOutage: countByStatus(outageClicks),
      signIns: countByStatus(signIns.answers),
      signInsDuringOutage: countByStatus(outageSignIns),
      keyPrefixesBefore: prefixes(keysBefore),
      keyPrefixesAfter: prefixes(keysAfter),
      usedAgainAfterMs: usedAgainAt - startedAt,
      readyzDuringOutage: Object.fromEntries(
        [...new Set(readyzDuringOutage)].map((status) => [
          status,
          readyzDuringOutage.filter((s) => s === status).length,
        ]),
      ),
      redisUpZeroAfterMs: downShownAfterMs,
      redisUpOneAfterMs: upShownAfterMs,
      slowestClickMs: slowest(clicks.answers),
      slowestSignInDuringOutageMs: slowest(outageSignIns),
      missing: missing.length,
    });

    expect(prefixes(keysBefore)).toEqual(expect.arrayContaining(USED_PREFIXES));
    expect(failed(clicks.answers)).toEqual([]);
    expect(failed(signIns.answers)).toEqual([]);
    expect(outageClicks.length).toBeGreaterThan(0);
    expect(countByStatus(outageClicks)).toEqual({ 302: outageClicks.length });
    // Falling back means answering: a sign-in that waits for Redis to come back is no fallback.
    expect(outageSignIns.length).toBeGreaterThanOrEqual(3);
    expect(slowest(outageSignIns)).toBeLessThan(SLOWEST_MS);
    expect(slowest(outageClicks)).toBeLessThan(SLOWEST_MS);
    expect(prefixes(keysAfter)).toEqual(expect.arrayContaining(USED_PREFIXES));
    expect(usedAgainAt - startedAt).toBeLessThan(10_000);
    expect(missing.length, `answered but not stored, e.g. ${missing.slice(0, 3).join(", ")}`).toBe(0);

    expect(upBefore).toBe(1);
    expect(upDuring).toBe(0);
    expect(readyzDuringOutage.length).toBeGreaterThan(5);
    expect(readyzDuringOutage.every((status) => status === 200)).toBe(true);
    expect(await redisUp(metricsOrigin)).toBe(1);
    // However often ioredis retried meanwhile, the log says it once.
    const warnings = (buddy?.output() ?? "").split("\n").filter((line) => line.includes('"msg":"Redis:'));
    expect(warnings).toHaveLength(1);
  }, 90_000);
});
