import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import { withTimeout } from "../../../lib/bounded-wait";

export const DUPLICATE_WINDOW_MS = 60 * 60 * 1000;
export const BURST_WINDOW_MS = 1000;
// Kept a little past the burst window so a late or skewed clock still finds the previous link.
const MAIL_TTL_MS = BURST_WINDOW_MS * 5;
/** A healthy Redis answers in about a millisecond; past this a person is kept waiting. */
const REDIS_TIMEOUT_MS = 200;
/** After a failure, clicks skip Redis this long rather than each waiting for it again. */
const RETRY_AFTER_MS = 1000;

export type MemoryQuery = {
  visitorHash: string;
  linkKey: string;
  mailKey: string;
  now: number;
  /** Already a bot for another reason: not a burst, and does not start the hour. */
  bot: boolean;
};
export type Recall = { burst: boolean; duplicate: boolean };
export type ClickMemory = (query: MemoryQuery) => Recall;
/** Told of an outage, and of its end, through the log of the request that found it. */
export type SharedClickMemory = (query: MemoryQuery, log: MemoryLog) => Promise<Recall>;
/**
 * Both the outage and its end are warnings: the short link's request logger (whose log this is)
 * writes nothing below warn, and an operator who saw the one needs the other.
 */
export type MemoryLog = { warn(message: string): void };

/** One process's memory: repeats and bursts are only seen by the instance that answered them. */
export function createLocalClickMemory(max = 100_000): ClickMemory {
  const lastByLink = new LRUCache<string, number>({ max, ttl: DUPLICATE_WINDOW_MS });
  const lastByMail = new LRUCache<string, { at: number; linkKey: string }>({ max, ttl: MAIL_TTL_MS });

  return ({ visitorHash, linkKey, mailKey, now, bot }) => {
    const mail = `${visitorHash}|${mailKey}`;
    const previous = lastByMail.get(mail);
    const burst =
      !bot && previous !== undefined && previous.linkKey !== linkKey && now - previous.at < BURST_WINDOW_MS;
    lastByMail.set(mail, { at: now, linkKey });

    const link = `${visitorHash}|${linkKey}`;
    const seen = lastByLink.get(link);
    const duplicate = seen !== undefined && now - seen < DUPLICATE_WINDOW_MS;
    // Only a counted click starts the hour; bots do not use up a person's first click.
    if (!bot && !burst && !duplicate) lastByLink.set(link, now);
    return { burst, duplicate };
  };
}

/**
 * The same rules as createLocalClickMemory, step for step, so both memories judge a click alike.
 * KEYS: mail, link. ARGV: now, linkKey, bot (0/1), burst window, mail ttl, duplicate window.
 * Returns burst * 2 + duplicate.
 */
const SCRIPT = `
local now = tonumber(ARGV[1])
local bot = ARGV[3] == '1'
local burst = 0
local previous = redis.call('GET', KEYS[1])
if not bot and previous then
  local sep = string.find(previous, '|', 1, true)
  if sep and string.sub(previous, sep + 1) ~= ARGV[2]
    and now - tonumber(string.sub(previous, 1, sep - 1)) < tonumber(ARGV[4]) then
    burst = 1
  end
end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. ARGV[2], 'PX', ARGV[5])
local duplicate = 0
local seen = redis.call('GET', KEYS[2])
if seen and now - tonumber(seen) < tonumber(ARGV[6]) then duplicate = 1 end
if not bot and burst == 0 and duplicate == 0 then
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[6])
end
return burst * 2 + duplicate
`;
const COMMAND = "buddyClickRecall";
const DISCONNECTED = new Set(["reconnecting", "close", "end"]);
type Scripted = Record<
  typeof COMMAND,
  (
    mail: string,
    link: string,
    now: number,
    linkKey: string,
    bot: 0 | 1,
    ...windows: number[]
  ) => Promise<number>
>;

export type SharedMemoryOptions = {
  keyPrefix?: string;
  timeoutMs?: number;
  /** Answers while Redis cannot; created on first use, as most instances never need it. */
  fallback: () => ClickMemory;
};

/**
 * Repeats and bursts shared by every instance on one Redis, in one atomic round trip per click.
 * Keys hold only the visitor hash (salted daily, never an address) and ids; the hash is the
 * cluster hash tag so both keys of a click live on one node. A click never waits on an absent
 * Redis: it is judged by the fallback, and the outage is logged once.
 */
export function createRedisClickMemory(redis: Redis, options: SharedMemoryOptions): SharedClickMemory {
  const prefix = options.keyPrefix ?? "buddy:click:";
  const timeoutMs = options.timeoutMs ?? REDIS_TIMEOUT_MS;
  redis.defineCommand(COMMAND, { numberOfKeys: 2, lua: SCRIPT });
  const scripted = redis as unknown as Scripted;
  let down = false;
  let retryAt = 0;

  function fallBack(query: MemoryQuery, why: string, log: MemoryLog): Recall {
    if (!down) {
      down = true;
      log.warn(`click memory: Redis ${why}; repeats and bursts are judged per process until it is back`);
    }
    return options.fallback()(query);
  }

  return (query, log) => {
    if (down && Date.now() < retryAt) return Promise.resolve(options.fallback()(query));
    // Known to be disconnected: a command would sit in the offline queue for seconds of
    // reconnects. While a connection is being made it is tried, bounded by the timeout.
    if (DISCONNECTED.has(redis.status)) return Promise.resolve(fallBack(query, `is ${redis.status}`, log));

    const { visitorHash, linkKey, mailKey, now, bot } = query;
    const tag = `${prefix}{${visitorHash}}`;
    const fail = (why: string) => {
      retryAt = Date.now() + RETRY_AFTER_MS;
      return fallBack(query, why, log);
    };
    const flagged = scripted[COMMAND](
      `${tag}:m:${mailKey}`,
      `${tag}:l:${linkKey}`,
      now,
      linkKey,
      bot ? 1 : 0,
      BURST_WINDOW_MS,
      MAIL_TTL_MS,
      DUPLICATE_WINDOW_MS,
    );
    return withTimeout(flagged, timeoutMs, () => null).then(
      (flags) => {
        if (flags === null) return fail(`did not answer within ${timeoutMs} ms`);
        if (down) {
          down = false;
          log.warn("click memory: Redis is back; repeats and bursts are shared again");
        }
        return { burst: (flags & 2) !== 0, duplicate: (flags & 1) !== 0 };
      },
      (error: Error) => fail(`failed (${error.message})`),
    );
  };
}
