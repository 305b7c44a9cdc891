import { hash } from "node:crypto";
import { DAY_MS, isoDay } from "@shared/days";
import { eq, lt } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { visitorSalts } from "../../../db/schema";
import { generateToken } from "../../../lib/tokens";

const REFRESH_MS = 60 * 60 * 1000;

const dayStartOf = (ms: number) => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);

export type VisitorSalts = {
  /** The salt of the UTC day holding `now`, from memory: never waits on the database. */
  saltFor(now: number): string;
  /** Loads today's and tomorrow's salts and forgets older ones; run once before serving. */
  start(): Promise<void>;
  /** What the hourly timer runs: today's and tomorrow's salts known, days before yesterday gone. */
  refresh(): Promise<void>;
  /** The days whose salt this instance holds in memory (yesterday at the earliest). */
  heldDays(): string[];
  stop(): void;
};

/**
 * Each UTC day's visitor salt is random, kept in `visitor_salts` so that every instance hashes a
 * visitor alike, and forgotten (from the table and from memory) within an hour of the end of the
 * day after it. A salt derived from APP_SECRET could be recomputed for any past day, and with it every
 * stored hash brute-forced back to its IPv4 address; a forgotten random salt cannot.
 *
 * The redirect reads the salt from memory. Tomorrow's is fetched (or created) a day ahead, so the
 * first click after midnight finds it there. Should it be missing all the same (the database was
 * unreachable for a day), this instance uses a random salt of its own at once and offers it as the
 * day's; until the database answers, its hashes match no other instance's.
 */
export function createVisitorSalts(
  db: Db,
  options: { clock?: () => number; onError?: (error: unknown) => void } = {},
): VisitorSalts {
  const clock = options.clock ?? Date.now;
  const onError = options.onError ?? (() => {});
  const held = new Map<string, { salt: string; shared: boolean }>();
  const loading = new Map<string, Promise<void>>();
  // The current day's bounds and salt: two number comparisons per click, no date formatting.
  let current = { start: 0, end: 0, salt: "" };
  let timer: NodeJS.Timeout | null = null;

  /** The day's salt as every instance sees it: ours if we insert first, else the one stored. */
  function load(day: string): Promise<void> {
    const entry = held.get(day);
    if (entry?.shared) return Promise.resolve();
    let pending = loading.get(day);
    if (!pending) {
      pending = (async () => {
        const candidate = entry?.salt ?? generateToken(32);
        await db.insert(visitorSalts).values({ day, salt: candidate }).onConflictDoNothing();
        const [row] = await db
          .select({ salt: visitorSalts.salt })
          .from(visitorSalts)
          .where(eq(visitorSalts.day, day));
        if (!row) throw new Error(`visitor salt of ${day} vanished`);
        held.set(day, { salt: row.salt, shared: true });
        if (isoDay(current.start) === day) current = { ...current, salt: row.salt };
      })().finally(() => loading.delete(day));
      loading.set(day, pending);
    }
    return pending;
  }

  async function refresh() {
    const today = dayStartOf(clock());
    const yesterday = isoDay(today - DAY_MS);
    for (const day of held.keys()) if (day < yesterday) held.delete(day);
    if (current.start < today - DAY_MS) current = { start: 0, end: 0, salt: "" };
    await Promise.all([load(isoDay(today)), load(isoDay(today + DAY_MS))]);
    await db.delete(visitorSalts).where(lt(visitorSalts.day, yesterday));
  }

  function saltFor(now: number): string {
    if (now >= current.start && now < current.end) return current.salt;
    const start = dayStartOf(now);
    const day = isoDay(start);
    let entry = held.get(day);
    if (!entry) {
      entry = { salt: generateToken(32), shared: false };
      held.set(day, entry);
      // Offered as the day's salt, unless the day is already past keeping.
      if (start >= dayStartOf(clock()) - DAY_MS) load(day).catch(onError);
    }
    current = { start, end: start + DAY_MS, salt: entry.salt };
    return entry.salt;
  }

  return {
    saltFor,
    async start() {
      await refresh();
      timer ??= setInterval(() => refresh().catch(onError), REFRESH_MS);
      timer.unref();
    },
    refresh,
    heldDays: () => [...held.keys()].sort(),
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

/**
 * A visitor is its address and user agent hashed with the day's salt: the same visitor is
 * recognisable within a UTC day (repeats, bursts), never across days, and no raw address is stored.
 */
export function createVisitorHasher(salts: VisitorSalts) {
  return (ip: string, userAgent: string, now = Date.now()): string =>
    hash("sha256", `${salts.saltFor(now)}|${ip}|${userAgent}`, "base64url").slice(0, 32);
}
