import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { type ClickClassifierOptions, createClickClassifier, type HitContext } from "./click-classifier";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `buddy:click:test:${randomUUID()}:`;
const PERSON = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Safari/605.1.15";
const HOUR = 60 * 60 * 1000;
const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);

const clients: Redis[] = [];
afterAll(async () => {
  const [cleaner] = clients;
  if (cleaner) {
    const keys: string[] = [];
    const stream = cleaner.scanStream({ match: `${PREFIX}*`, count: 1000 });
    for await (const batch of stream) keys.push(...(batch as string[]));
    if (keys.length) await cleaner.del(...keys);
  }
  for (const client of clients) client.disconnect();
});

function redisClient() {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  clients.push(client);
  return client;
}

/**
 * Each hit's request logger. These tests are about the shared memory: a silent fallback to
 * process memory must fail them.
 */
const noFallback = {
  warn(message: string) {
    throw new Error(message);
  },
};
const modes: [string, () => ClickClassifierOptions][] = [
  ["in process", () => ({})],
  ["over Redis", () => ({ redis: redisClient(), keyPrefix: PREFIX })],
];

/** Each test its own visitor, so tests sharing a Redis never see each other's clicks. */
function visitor() {
  const visitorHash = randomUUID();
  return (overrides: Partial<HitContext> = {}): HitContext => ({
    method: "GET",
    userAgent: PERSON,
    referrerHost: null,
    visitorHash,
    linkKey: "rel-1|col-1",
    mailKey: "org-sender",
    now: T0,
    log: noFallback,
    ...overrides,
  });
}

const counted = { bot: false, botReason: null, duplicate: false, verified: true, reason: "counted" };

describe.each(modes)("the click classifier %s", (_mode, options) => {
  it("flags HEAD requests, bot user agents and mail-scanner referrers without any memory", async () => {
    const classify = createClickClassifier(options());
    const hit = visitor();
    expect(await classify(hit({ method: "HEAD" }))).toMatchObject({ bot: true, botReason: "head" });
    expect(
      await classify(hit({ userAgent: "Googlebot/2.1 (+http://www.google.com/bot.html)" })),
    ).toMatchObject({ bot: true, botReason: "user-agent", verified: false });
    expect(await classify(hit({ userAgent: "" }))).toMatchObject({ botReason: "user-agent" });
    expect(
      await classify(hit({ referrerHost: "eur01.safelinks.protection.outlook.com", linkKey: "rel-1|col-2" })),
    ).toMatchObject({ bot: true, botReason: "scanner-referrer" });
  });

  it("counts the same visitor on the same link once an hour", async () => {
    const classify = createClickClassifier(options());
    const hit = visitor();
    expect(await classify(hit())).toEqual(counted);
    expect(await classify(hit({ now: T0 + 10 * 60_000 }))).toEqual({
      bot: false,
      botReason: null,
      duplicate: true,
      verified: false,
      reason: "repeat",
    });
    // A repeat does not extend the hour: the click an hour after the first counts again.
    expect(await classify(hit({ now: T0 + HOUR }))).toEqual(counted);
    expect(await classify(hit({ now: T0 + HOUR + 1 }))).toMatchObject({ duplicate: true });
  });

  it("does not let a bot's hit start a person's hour", async () => {
    const classify = createClickClassifier(options());
    const hit = visitor();
    expect(await classify(hit({ method: "HEAD" }))).toMatchObject({ bot: true, duplicate: false });
    expect(await classify(hit({ now: T0 + 5 }))).toEqual(counted);
    expect(await classify(hit({ now: T0 + 10, method: "HEAD" }))).toMatchObject({
      bot: true,
      duplicate: true,
      verified: false,
    });
  });

  it("flags a different link of the same sender within a second as a burst", async () => {
    const classify = createClickClassifier(options());
    const hit = visitor();
    expect(await classify(hit({ linkKey: "rel-1|col-1" }))).toEqual(counted);
    expect(await classify(hit({ linkKey: "rel-1|col-2", now: T0 + 400 }))).toEqual({
      bot: true,
      botReason: "burst",
      duplicate: false,
      verified: false,
      reason: "burst",
    });
    // Another sender's link is another e-mail.
    expect(await classify(hit({ linkKey: "rel-2|col-9", mailKey: "org-other", now: T0 + 500 }))).toEqual(
      counted,
    );
    // The burst did not start the hour of the link it hit.
    expect(await classify(hit({ linkKey: "rel-1|col-2", now: T0 + 5_000 }))).toEqual(counted);
  });

  it("does not call a second link a burst after a second", async () => {
    const classify = createClickClassifier(options());
    const hit = visitor();
    expect(await classify(hit({ linkKey: "rel-1|col-1" }))).toEqual(counted);
    expect(await classify(hit({ linkKey: "rel-1|col-2", now: T0 + 1000 }))).toEqual(counted);
  });

  it("counts 3 person's clicks a day per network source and pair, whatever the visitor", async () => {
    const classify = createClickClassifier(options());
    const source = randomUUID();
    const pairKey = `${randomUUID()}>advertiser`;
    // A new user agent each time: a new visitor, so neither repeat nor burst.
    const reasons: string[] = [];
    for (let i = 0; i < 6; i++) {
      const hit = visitor();
      reasons.push((await classify(hit({ source, pairKey, now: T0 + i * 2_000 }))).reason);
    }
    expect(reasons).toEqual(["counted", "counted", "counted", "source_cap", "source_cap", "source_cap"]);
    // Another pair, another source, or the next UTC day has its own allowance.
    expect(await classify(visitor()({ source, pairKey: `${pairKey}-2`, now: T0 + 20_000 }))).toEqual(counted);
    expect(await classify(visitor()({ source: randomUUID(), pairKey, now: T0 + 20_000 }))).toEqual(counted);
    expect(await classify(visitor()({ source, pairKey, now: T0 + 24 * HOUR }))).toEqual(counted);
  });

  it("lets only clicks that would count use up a source's allowance", async () => {
    const classify = createClickClassifier(options());
    const source = randomUUID();
    const pairKey = `${randomUUID()}>advertiser`;
    const hit = visitor();
    expect(await classify(hit({ source, pairKey }))).toEqual(counted);
    expect(await classify(hit({ source, pairKey, now: T0 + 5_000 }))).toMatchObject({ reason: "repeat" });
    expect(await classify(hit({ source, pairKey, method: "HEAD", linkKey: "rel-1|col-7" }))).toMatchObject({
      reason: "bot",
    });
    expect(await classify(visitor()({ source, pairKey, now: T0 + 6_000 }))).toEqual(counted);
    expect(await classify(visitor()({ source, pairKey, now: T0 + 7_000 }))).toEqual(counted);
    expect(await classify(visitor()({ source, pairKey, now: T0 + 8_000 }))).toMatchObject({
      reason: "source_cap",
      verified: false,
      bot: false,
      duplicate: false,
    });
  });

  it("never counts a click from where a member of the sender signed in, nor lets it use the allowance", async () => {
    const classify = createClickClassifier(options());
    const source = randomUUID();
    const sender = randomUUID();
    await classify.rememberSignIn([sender], source, noFallback);
    for (let i = 0; i < 5; i++) {
      expect(
        await classify(visitor()({ source, mailKey: sender, pairKey: `${sender}>a`, now: T0 + i * 2_000 })),
      ).toMatchObject({ reason: "own_click", verified: false, bot: false });
    }
    // Another sender's link from there is no one's own click.
    expect(await classify(visitor()({ source, mailKey: "org-other", now: T0 + 20_000 }))).toEqual(counted);
  });

  it("judges a click without a network source (loopback) by the visitor rule alone", async () => {
    const classify = createClickClassifier(options());
    const pairKey = `${randomUUID()}>advertiser`;
    for (let i = 0; i < 5; i++) {
      expect(await classify(visitor()({ source: null, pairKey, now: T0 + i * 2_000 }))).toEqual(counted);
    }
  });

  it("does not call a bot's hit a burst too, keeping the first reason", async () => {
    const classify = createClickClassifier(options());
    const hit = visitor();
    await classify(hit({ linkKey: "rel-1|col-1" }));
    expect(await classify(hit({ linkKey: "rel-1|col-2", now: T0 + 100, method: "HEAD" }))).toMatchObject({
      botReason: "head",
    });
  });
});

describe("the click classifier over one shared Redis", () => {
  it("lets two instances see each other's repeats and bursts", async () => {
    const a = createClickClassifier({ redis: redisClient(), keyPrefix: PREFIX });
    const b = createClickClassifier({ redis: redisClient(), keyPrefix: PREFIX });
    const hit = visitor();
    expect(await a(hit())).toEqual(counted);
    expect(await b(hit({ now: T0 + 60_000 }))).toMatchObject({ duplicate: true, verified: false });
    expect(await b(hit({ linkKey: "rel-1|col-2", now: T0 + 60_300 }))).toMatchObject({ botReason: "burst" });
    // The burst seen by b did not start that link's hour for a either.
    expect(await a(hit({ linkKey: "rel-1|col-2", now: T0 + 70_000 }))).toEqual(counted);
    expect(await b(hit({ linkKey: "rel-1|col-2", now: T0 + 80_000 }))).toMatchObject({ duplicate: true });
  });

  it("shares the sources' allowances and sign-ins between instances", async () => {
    const a = createClickClassifier({ redis: redisClient(), keyPrefix: PREFIX });
    const b = createClickClassifier({ redis: redisClient(), keyPrefix: PREFIX });
    const source = randomUUID();
    const pairKey = `${randomUUID()}>advertiser`;
    const reasons: string[] = [];
    for (let i = 0; i < 6; i++) {
      const classify = i % 2 === 0 ? a : b;
      reasons.push((await classify(visitor()({ source, pairKey, now: T0 + i * 2_000 }))).reason);
    }
    expect(reasons).toEqual(["counted", "counted", "counted", "source_cap", "source_cap", "source_cap"]);

    const sender = randomUUID();
    const own = randomUUID();
    await a.rememberSignIn([sender], own, noFallback);
    expect(await b(visitor()({ source: own, mailKey: sender }))).toMatchObject({ reason: "own_click" });
  });

  it("keeps its keys under the prefix, named by visitor hash and ids only, and expiring", async () => {
    const redis = redisClient();
    const classify = createClickClassifier({ redis, keyPrefix: PREFIX });
    const hit = visitor();
    const { visitorHash } = hit();
    await classify(hit());
    const keys = (await redis.keys(`${PREFIX}{${visitorHash}}*`)).sort();
    expect(keys).toEqual([
      `${PREFIX}{${visitorHash}}:l:rel-1|col-1`,
      `${PREFIX}{${visitorHash}}:m:org-sender`,
    ]);
    const [linkTtl, mailTtl] = await Promise.all(keys.map((key) => redis.pttl(key)));
    expect(linkTtl).toBeGreaterThan(HOUR - 60_000);
    expect(linkTtl).toBeLessThanOrEqual(HOUR);
    expect(mailTtl).toBeGreaterThan(0);
    expect(mailTtl).toBeLessThanOrEqual(5_000);
  });
});
