import { DAY_MS } from "@shared/days";
import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import { withTimeout } from "../../../lib/bounded-wait";

export const DUPLICATE_WINDOW_MS = 60 * 60 * 1000;
export const BURST_WINDOW_MS = 1000;
// Kept a little past the burst window so a late or skewed clock still finds the previous link.
const MAIL_TTL_MS = BURST_WINDOW_MS * 5;
/** CONTRACT §5: counted clicks per network source per sender → advertiser pair per UTC day. */
export const SOURCE_DAILY_CAP = 3;
/** A network source a member of the sender signed in from is its own this long. */
export const OWN_SOURCE_MS = 30 * DAY_MS;
// A day's count is kept a little past its day, so a skewed clock still finds it.
const CAP_TTL_MS = DAY_MS + 60 * 60 * 1000;
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
  /**
   * The client's network source (lib/client-network.ts networkSource), keyed so no address is
   * kept; null for a loopback client, judged by the visitor rule alone.
   */
  source: string | null;
  /** The sender → advertiser pair whose daily allowance per source a counted click uses. */
  pairKey: string;
  /** The sending organization: a source one of its members signed in from is its own. */
  senderKey: string;
};
export type Recall = { burst: boolean; duplicate: boolean; ownClick: boolean; sourceCap: boolean };
/** What the click path asks, and what a sign-in tells it. */
export type ClickMemory = {
  recall(query: MemoryQuery): Recall;
  /** A member of each sender signed in from this source at `now`. */
  rememberSignIn(senderKeys: readonly string[], source: string, now: number): void;
};
/** Told of an outage, and of its end, through the log of the request that found it. */
export type SharedClickMemory = {
  recall(query: MemoryQuery, log: MemoryLog): Promise<Recall>;
  /** Never fails: an unreachable Redis is logged, and the fallback remembers it all the same. */
  rememberSignIn(senderKeys: readonly string[], source: string, now: number, log: MemoryLog): Promise<void>;
};
/**
 * Both the outage and its end are warnings: the short link's request logger (whose log this is)
 * writes nothing below warn, and an operator who saw the one needs the other.
 */
export type MemoryLog = { warn(message: string): void };

/**
 * One process's memory: repeats, bursts, daily allowances and sign-in sources are only seen by the
 * instance that answered them. Each is bounded (least recently used first out).
 */
export function createLocalClickMemory(max = 100_000): ClickMemory {
  const lastByLink = new LRUCache<string, number>({ max, ttl: DUPLICATE_WINDOW_MS });
  const lastByMail = new LRUCache<string, { at: number; linkKey: string }>({ max, ttl: MAIL_TTL_MS });
  const countedBySource = new LRUCache<string, number>({ max, ttl: CAP_TTL_MS });
  const signedInAt = new LRUCache<string, number>({ max, ttl: OWN_SOURCE_MS });

  return {
    recall({ visitorHash, linkKey, mailKey, now, bot, source, pairKey, senderKey }) {
      const mail = `${visitorHash}|${mailKey}`;
      const previous = lastByMail.get(mail);
      const burst =
        !bot && previous !== undefined && previous.linkKey !== linkKey && now - previous.at < BURST_WINDOW_MS;
      lastByMail.set(mail, { at: now, linkKey });

      const link = `${visitorHash}|${linkKey}`;
      const seen = lastByLink.get(link);
      const duplicate = seen !== undefined && now - seen < DUPLICATE_WINDOW_MS;
      // Only a person's click starts the hour; bots do not use up a person's first click.
      if (!bot && !burst && !duplicate) lastByLink.set(link, now);

      let ownClick = false;
      let sourceCap = false;
      if (source !== null && !bot && !burst && !duplicate) {
        const signedIn = signedInAt.get(`${senderKey}|${source}`);
        ownClick = signedIn !== undefined && now - signedIn < OWN_SOURCE_MS;
        if (!ownClick) {
          // Only a click that would count uses up the allowance.
          const key = `${source}|${pairKey}|${Math.floor(now / DAY_MS)}`;
          const counted = countedBySource.get(key) ?? 0;
          sourceCap = counted >= SOURCE_DAILY_CAP;
          if (!sourceCap) countedBySource.set(key, counted + 1);
        }
      }
      return { burst, duplicate, ownClick, sourceCap };
    },
    rememberSignIn(senderKeys, source, now) {
      for (const senderKey of senderKeys) signedInAt.set(`${senderKey}|${source}`, now);
    },
  };
}

/**
 * The same rules as createLocalClickMemory, step for step, so both memories judge a click alike.
 * KEYS: mail, link, the source's count of the pair's day, the sender's sign-in from the source.
 * ARGV: now, linkKey, bot (0/1), burst window, mail ttl, duplicate window, source rules (0/1),
 * own-source window, daily cap, count ttl.
 * Returns burst * 2 + duplicate + own click * 4 + source cap * 8.
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
local own = 0
local cap = 0
if not bot and burst == 0 and duplicate == 0 then
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[6])
  if ARGV[7] == '1' then
    local signedIn = redis.call('GET', KEYS[4])
    if signedIn and now - tonumber(signedIn) < tonumber(ARGV[8]) then
      own = 1
    else
      local counted = tonumber(redis.call('GET', KEYS[3]) or '0')
      if counted >= tonumber(ARGV[9]) then
        cap = 1
      else
        redis.call('SET', KEYS[3], counted + 1, 'PX', ARGV[10])
      end
    end
  end
end
return burst * 2 + duplicate + own * 4 + cap * 8
`;
const COMMAND = "buddyClickRecall";
const DISCONNECTED = new Set(["reconnecting", "close", "end"]);
type Scripted = Record<
  typeof COMMAND,
  (
    mail: string,
    link: string,
    sourceCount: string,
    signIn: string,
    now: number,
    linkKey: string,
    bot: 0 | 1,
    burstWindow: number,
    mailTtl: number,
    duplicateWindow: number,
    sourceRules: 0 | 1,
    ownWindow: number,
    cap: number,
    countTtl: number,
  ) => Promise<number>
>;

export type SharedMemoryOptions = {
  keyPrefix?: string;
  timeoutMs?: number;
  /** Answers while Redis cannot; created on first use, as most instances never need it. */
  fallback: () => ClickMemory;
};

/**
 * Repeats, bursts, daily allowances and sign-in sources shared by every instance on one Redis, in
 * one atomic round trip per click. Keys hold only the visitor hash (salted daily, never an
 * address), the keyed network source (never an address either) and ids. The cluster hash tag is
 * the source (the visitor hash for a loopback client), so every key of a click lives on one node.
 * A click never waits on an absent Redis: it is judged by the fallback, and the outage is logged
 * once. A sign-in is remembered in the fallback too, so an outage does not forget it.
 */
export function createRedisClickMemory(redis: Redis, options: SharedMemoryOptions): SharedClickMemory {
  const prefix = options.keyPrefix ?? "buddy:click:";
  const timeoutMs = options.timeoutMs ?? REDIS_TIMEOUT_MS;
  redis.defineCommand(COMMAND, { numberOfKeys: 4, lua: SCRIPT });
  const scripted = redis as unknown as Scripted;
  let down = false;
  let retryAt = 0;

  function fallBack(query: MemoryQuery, why: string, log: MemoryLog): Recall {
    if (!down) {
      down = true;
      log.warn(`click memory: Redis ${why}; repeats and bursts are judged per process until it is back`);
    }
    return options.fallback().recall(query);
  }

  const signInKey = (source: string, senderKey: string) => `${prefix}{${source}}:o:${senderKey}`;

  function recall(query: MemoryQuery, log: MemoryLog): Promise<Recall> {
    if (down && Date.now() < retryAt) return Promise.resolve(options.fallback().recall(query));
    // Known to be disconnected: a command would sit in the offline queue for seconds of
    // reconnects. While a connection is being made it is tried, bounded by the timeout.
    if (DISCONNECTED.has(redis.status)) return Promise.resolve(fallBack(query, `is ${redis.status}`, log));

    const { visitorHash, linkKey, mailKey, now, bot, source, pairKey, senderKey } = query;
    const visitor = source === null ? `${prefix}{${visitorHash}}:` : `${prefix}{${source}}:${visitorHash}:`;
    const tag = `${prefix}{${source ?? visitorHash}}`;
    const fail = (why: string) => {
      retryAt = Date.now() + RETRY_AFTER_MS;
      return fallBack(query, why, log);
    };
    const flagged = scripted[COMMAND](
      `${visitor}m:${mailKey}`,
      `${visitor}l:${linkKey}`,
      `${tag}:c:${pairKey}:${Math.floor(now / DAY_MS)}`,
      `${tag}:o:${senderKey}`,
      now,
      linkKey,
      bot ? 1 : 0,
      BURST_WINDOW_MS,
      MAIL_TTL_MS,
      DUPLICATE_WINDOW_MS,
      source === null ? 0 : 1,
      OWN_SOURCE_MS,
      SOURCE_DAILY_CAP,
      CAP_TTL_MS,
    );
    return withTimeout(flagged, timeoutMs, () => null).then(
      (flags) => {
        if (flags === null) return fail(`did not answer within ${timeoutMs} ms`);
        if (down) {
          down = false;
          log.warn("click memory: Redis is back; repeats and bursts are shared again");
        }
        return {
          burst: (flags & 2) !== 0,
          duplicate: (flags & 1) !== 0,
          ownClick: (flags & 4) !== 0,
          sourceCap: (flags & 8) !== 0,
        };
      },
      (error: Error) => fail(`failed (${error.message})`),
    );
  }

  /** After a sign-in's write failed, sign-ins skip Redis this long, as clicks do after theirs. */
  let signInsRetryAt = 0;
  async function rememberSignIn(senderKeys: readonly string[], source: string, now: number, log: MemoryLog) {
    options.fallback().rememberSignIn(senderKeys, source, now);
    if (senderKeys.length === 0) return;
    // As the clicks do: a sign-in never waits on a Redis known to be away (the outage is logged
    // once, by the click memory's fallback); this instance's memory has it meanwhile.
    const at = Date.now();
    if (DISCONNECTED.has(redis.status) || (down && at < retryAt) || at < signInsRetryAt) return;
    const pipeline = redis.pipeline();
    for (const senderKey of senderKeys) pipeline.set(signInKey(source, senderKey), now, "PX", OWN_SOURCE_MS);
    const written = await withTimeout(
      pipeline.exec().then(
        (results) => results?.find(([error]) => error)?.[0]?.message ?? "",
        (error: Error) => error.message,
      ),
      timeoutMs,
      () => `did not answer within ${timeoutMs} ms`,
    );
    if (written) {
      signInsRetryAt = Date.now() + RETRY_AFTER_MS;
      log.warn(`click memory: a sign-in's network source was not shared through Redis (${written})`);
    }
  }

  return { recall, rememberSignIn };
}
