import type { ClickReason } from "@shared/click-reasons";
import type { Redis } from "ioredis";
import { isbot } from "isbot";
import { LRUCache } from "lru-cache";
import {
  type ClickMemory,
  createLocalClickMemory,
  createRedisClickMemory,
  type MemoryLog,
  type MemoryQuery,
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
  /**
   * The keyed network source of the client (CONTRACT §5's daily allowance and own clicks); null or
   * absent for a loopback client, judged by the visitor rule alone.
   */
  source?: string | null;
  /** The sender → advertiser pair; the sender (mailKey) alone when absent. */
  pairKey?: string;
  /** The request's logger: a Redis outage found while judging this hit is logged with it. */
  log: MemoryLog;
};

export type HitVerdict = {
  bot: boolean;
  botReason: string | null;
  duplicate: boolean;
  /** reason === "counted". */
  verified: boolean;
  /** Why it counts or not: the first rule that refused it. */
  reason: ClickReason;
};

/** Synchronous without Redis, so the in-process path pays for no promise of its own. */
export type ClickClassifier = ((hit: HitContext) => HitVerdict | Promise<HitVerdict>) & {
  /**
   * A member of each sending organization signed in from this keyed network source now: its
   * clicks from there are its own for 30 days (CONTRACT §5). Never fails.
   */
  rememberSignIn(senderKeys: readonly string[], source: string, log: MemoryLog): Promise<void>;
};

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

function reasonOf(botReason: string | null, recall: Recall): ClickReason {
  if (botReason !== null) return "bot";
  if (recall.burst) return "burst";
  if (recall.duplicate) return "repeat";
  if (recall.ownClick) return "own_click";
  if (recall.sourceCap) return "source_cap";
  return "counted";
}

function verdictOf(botReason: string | null, recall: Recall): HitVerdict {
  const flagged = botReason ?? (recall.burst ? "burst" : null);
  const reason = reasonOf(botReason, recall);
  return {
    bot: flagged !== null,
    botReason: flagged,
    duplicate: recall.duplicate,
    verified: reason === "counted",
    reason,
  };
}

/**
 * Flags what is likely not a person: bot user agents (isbot), HEAD requests, scanner referrers,
 * and bursts — a different link of the same sender opened by the same visitor within a second,
 * as scanners do. A person's repeat of one link within an hour is a duplicate. A person's click
 * from a network source a member of the sender signed in from is its own; past 3 a day from one
 * source for the pair, it is over the source's allowance. Every hit is kept; only verified ones
 * (none of these) count. The memory is per process, or shared through Redis so that
 * instances behind a balancer count a visitor once.
 */
export function createClickClassifier(options: ClickClassifierOptions = {}): ClickClassifier {
  const toQuery = (hit: HitContext, botReason: string | null): MemoryQuery => ({
    visitorHash: hit.visitorHash,
    linkKey: hit.linkKey,
    mailKey: hit.mailKey,
    now: hit.now,
    bot: botReason !== null,
    source: hit.source ?? null,
    pairKey: hit.pairKey ?? hit.mailKey,
    senderKey: hit.mailKey,
  });

  const redis = options.redis;
  if (!redis) {
    const local = createLocalClickMemory(options.maxEntries);
    const classify = (hit: HitContext) => {
      const botReason = botReasonOf(hit);
      return verdictOf(botReason, local.recall(toQuery(hit, botReason)));
    };
    return Object.assign(classify, {
      rememberSignIn: async (senderKeys: readonly string[], source: string) =>
        local.rememberSignIn(senderKeys, source, Date.now()),
    });
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
  const classify = async (hit: HitContext) => {
    const botReason = botReasonOf(hit);
    return verdictOf(botReason, await shared.recall(toQuery(hit, botReason), hit.log));
  };
  return Object.assign(classify, {
    rememberSignIn: (senderKeys: readonly string[], source: string, log: MemoryLog) =>
      shared.rememberSignIn(senderKeys, source, Date.now(), log),
  });
}
