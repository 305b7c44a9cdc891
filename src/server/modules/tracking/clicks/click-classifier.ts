import type { Redis } from "ioredis";
import { isbot } from "isbot";
import { LRUCache } from "lru-cache";
import {
  type ClickMemory,
  createLocalClickMemory,
  createRedisClickMemory,
  type MemoryLog,
  type Recall,
} from "./click-memory";

/** Mail security gateways that open every link of an e-mail before the reader does. */
const SCANNER_REFERRERS = [
  "safelinks.protection.outlook.com",
  "mimecast",
  "urldefense",
  "proofpoint",
  "barracuda",
  "trendmicro",
  "sophos",
];

export type HitContext = {
  method: string;
  userAgent: string;
  referrerHost: string | null;
  visitorHash: string;
  /** One tracked link: the same relationship and collateral. */
  linkKey: string;
  /** One e-mail's worth of links: everything the same organization shared. */
  mailKey: string;
  now: number;
  /** The request's logger: a Redis outage found while judging this hit is logged with it. */
  log: MemoryLog;
};

export type HitVerdict = { bot: boolean; botReason: string | null; duplicate: boolean; verified: boolean };

/** Synchronous without Redis, so the in-process path pays for no promise of its own. */
export type ClickClassifier = (hit: HitContext) => HitVerdict | Promise<HitVerdict>;

export type ClickClassifierOptions = {
  maxEntries?: number;
  /** Shares the repeat and burst memory between instances (REDIS_URL). */
  redis?: Redis;
  keyPrefix?: string;
  redisTimeoutMs?: number;
};

/**
 * isbot runs one large pattern over the user agent. Millions of readers share a few thousand
 * user agents (a browser version on an OS), so the verdict is remembered per user agent.
 */
const botAgents = new LRUCache<string, boolean>({ max: 10_000 });
function isBotAgent(userAgent: string): boolean {
  let verdict = botAgents.get(userAgent);
  if (verdict === undefined) {
    verdict = isbot(userAgent);
    botAgents.set(userAgent, verdict);
  }
  return verdict;
}

/** What needs no memory of earlier hits. */
function botReasonOf(hit: HitContext): string | null {
  if (hit.method === "HEAD") return "head";
  if (!hit.userAgent || isBotAgent(hit.userAgent)) return "user-agent";
  if (hit.referrerHost && SCANNER_REFERRERS.some((s) => hit.referrerHost?.includes(s)))
    return "scanner-referrer";
  return null;
}

function verdictOf(botReason: string | null, recall: Recall): HitVerdict {
  const reason = botReason ?? (recall.burst ? "burst" : null);
  const bot = reason !== null;
  return { bot, botReason: reason, duplicate: recall.duplicate, verified: !bot && !recall.duplicate };
}

/**
 * Flags what is likely not a person: bot user agents (isbot), HEAD requests, scanner referrers,
 * and bursts — a different link of the same sender opened by the same visitor within a second,
 * as scanners do. A person's repeat of one link within an hour is a duplicate. Every hit is kept;
 * only verified ones (neither) count. The memory is per process, or shared through Redis so that
 * instances behind a balancer count a visitor once.
 */
export function createClickClassifier(options: ClickClassifierOptions = {}): ClickClassifier {
  const toQuery = (hit: HitContext, botReason: string | null) => ({
    visitorHash: hit.visitorHash,
    linkKey: hit.linkKey,
    mailKey: hit.mailKey,
    now: hit.now,
    bot: botReason !== null,
  });

  const redis = options.redis;
  if (!redis) {
    const local = createLocalClickMemory(options.maxEntries);
    return (hit) => {
      const botReason = botReasonOf(hit);
      return verdictOf(botReason, local(toQuery(hit, botReason)));
    };
  }

  let local: ClickMemory | undefined;
  const shared = createRedisClickMemory(redis, {
    keyPrefix: options.keyPrefix,
    timeoutMs: options.redisTimeoutMs,
    fallback: () => {
      local ??= createLocalClickMemory(options.maxEntries);
      return local;
    },
  });
  return async (hit) => {
    const botReason = botReasonOf(hit);
    return verdictOf(botReason, await shared(toQuery(hit, botReason), hit.log));
  };
}
