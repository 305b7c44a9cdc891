import { isbot } from "isbot";
import { LRUCache } from "lru-cache";

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
const DUPLICATE_WINDOW_MS = 60 * 60 * 1000;
const BURST_WINDOW_MS = 1000;

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
};

export type HitVerdict = { bot: boolean; botReason: string | null; duplicate: boolean; verified: boolean };

/**
 * Flags what is likely not a person: bot user agents (isbot), HEAD requests, scanner referrers,
 * and bursts — a different link of the same sender opened by the same visitor within a second,
 * as scanners do. A person's repeat of one link within an hour is a duplicate. Every hit is kept;
 * only verified ones (neither) count. The memory is per process (see README).
 */
export function createClickClassifier(options: { maxEntries?: number } = {}) {
  const max = options.maxEntries ?? 100_000;
  const lastByLink = new LRUCache<string, number>({ max, ttl: DUPLICATE_WINDOW_MS });
  const lastByMail = new LRUCache<string, { at: number; linkKey: string }>({ max, ttl: BURST_WINDOW_MS * 5 });

  return (hit: HitContext): HitVerdict => {
    let botReason: string | null = null;
    if (hit.method === "HEAD") botReason = "head";
    else if (!hit.userAgent || isbot(hit.userAgent)) botReason = "user-agent";
    else if (hit.referrerHost && SCANNER_REFERRERS.some((s) => hit.referrerHost?.includes(s)))
      botReason = "scanner-referrer";

    const mailKey = `${hit.visitorHash}|${hit.mailKey}`;
    const previous = lastByMail.get(mailKey);
    if (
      !botReason &&
      previous &&
      previous.linkKey !== hit.linkKey &&
      hit.now - previous.at < BURST_WINDOW_MS
    ) {
      botReason = "burst";
    }
    lastByMail.set(mailKey, { at: hit.now, linkKey: hit.linkKey });

    const linkKey = `${hit.visitorHash}|${hit.linkKey}`;
    const seen = lastByLink.get(linkKey);
    const duplicate = seen !== undefined && hit.now - seen < DUPLICATE_WINDOW_MS;
    // Only a counted click starts the hour; bots do not use up a person's first click.
    if (!botReason && !duplicate) lastByLink.set(linkKey, hit.now);
    const bot = botReason !== null;
    return { bot, botReason, duplicate, verified: !bot && !duplicate };
  };
}
