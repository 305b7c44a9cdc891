import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, rowsOf } from "../../db/client";
import { openTestDatabase, pgliteLacks } from "../../testing/database";
import { partitionAt } from "../../testing/partitions";
import { periodsAgainstDays } from "../../testing/rollups";
import { seededRandom } from "../../testing/seeded-random";
import { type StoredClick, storeClicks } from "./clicks/click-store";
import { type IncomingConversion, storeConversions } from "./conversions/conversion-store";

/**
 * The roll-ups' one lock order (migration 0019, docs/decisions.md "One lock order"): writers of
 * every kind at once, on several connections, over the same pairs and days, never deadlock, and
 * leave the days equal to the events and the periods equal to their days. The stores are called
 * without the conversion recorder's retry, so a deadlock would fail the batch that lost.
 */
let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
  // Fixed days, which in time fall past the click retention's edge: their partitions are made
  // here, as an instance of their time would have made them.
  for (const midnight of MIDNIGHTS) {
    const at = Date.parse(`${midnight}T00:00:00Z`);
    for (const instant of [at - 1, at]) await partitionAt(database.db, "click_events", new Date(instant));
  }
});

afterAll(async () => {
  await database.close();
});

const WORKERS = 8;
const BATCHES_PER_WORKER = 30;
const ROWS_PER_BATCH = 40;

/**
 * Last and first moments of consecutive days across each kind of boundary: a year (and its month
 * and part), a month part, a month, the last part of a month, and the last part of February.
 */
const MIDNIGHTS = ["2026-01-01", "2026-01-09", "2026-01-17", "2026-01-25", "2026-02-01", "2026-03-01"];

/** One writer's batch: clicks, conversions (leads, purchases) or a refund of revenue. */
type Kind = "clicks" | "conversions" | "refund";

describe.skipIf(pgliteLacks("concurrent connections"))("the roll-ups under concurrent writers", () => {
  it("never deadlock, and keep days equal to events and periods equal to days, across midnights", async () => {
    const random = seededRandom(35);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
    // Few organizations, so that every batch shares pairs, days and periods with the others.
    const organizations = Array.from({ length: 4 }, () => randomUUID());
    const pair = () => {
      const source = pick(organizations);
      const others = organizations.filter((organization) => organization !== source);
      return { source, target: pick(others) };
    };
    const instant = () => {
      const midnight = Date.parse(`${pick(MIDNIGHTS)}T00:00:00Z`);
      // 23:59:59.xxx of the day before, or 00:00:00.xxx of the day.
      const ms = Math.floor(random() * 1000);
      return new Date(random() < 0.5 ? midnight - 1000 + ms : midnight + ms).toISOString();
    };
    const refunds: {
      day: string;
      source_org_id: string;
      target_org_id: string;
      currency: string;
      value_minor: number;
    }[] = [];

    const batch = (kind: Kind) => {
      if (kind === "clicks") {
        const clicks: StoredClick[] = Array.from({ length: ROWS_PER_BATCH }, () => {
          const { source, target } = pair();
          return {
            id: randomUUID(),
            short_code: null,
            relationship_id: "relationship",
            collateral_id: "collateral",
            source_org_id: source,
            target_org_id: target,
            occurred_at: instant(),
            method: "GET",
            visitor_hash: "visitor",
            user_agent: null,
            referrer_host: null,
            bot: false,
            bot_reason: null,
            duplicate: false,
            ...(random() < 0.8
              ? { verified: true, reason: "counted" as const }
              : { verified: false, reason: "repeat" as const }),
          };
        });
        return () => storeClicks(database.db, clicks);
      }
      if (kind === "conversions") {
        const rows: IncomingConversion[] = Array.from({ length: ROWS_PER_BATCH }, () => {
          const { source, target } = pair();
          const purchase = random() < 0.6;
          return {
            id: randomUUID(),
            click_id: randomUUID(),
            customer_id: null,
            type: purchase ? "purchase" : "signup",
            value_minor: purchase ? 100 + Math.floor(random() * 9900) : null,
            currency: purchase ? pick(["USD", "EUR"]) : null,
            event_id: purchase ? randomUUID() : null,
            metadata: null,
            binds_by: null,
            channel: "key",
            payment_intent_id: null,
            source_org_id: source,
            target_org_id: target,
            created_at: instant(),
          };
        });
        return () => storeConversions(database.db, rows);
      }
      // A refund as a writer of days would send it: some revenue taken away, the days in no order.
      const days = Array.from({ length: ROWS_PER_BATCH / 4 }, () => {
        const { source, target } = pair();
        return {
          day: instant().slice(0, 10),
          source_org_id: source,
          target_org_id: target,
          currency: pick(["USD", "EUR"]),
          value_minor: -(1 + Math.floor(random() * 50)),
        };
      });
      return async () => {
        await database.db.execute(sql`
          select pair_daily_revenue_add(array(
            select row(day, source_org_id, target_org_id, currency, value_minor, 0)::pair_daily_revenue
            from json_to_recordset(${JSON.stringify(days)}::json)
              as x(day date, source_org_id text, target_org_id text, currency text, value_minor bigint)))`);
        refunds.push(...days);
      };
    };

    // Every batch made up front (one seeded draw order), then run by the workers at once.
    const kinds: Kind[] = ["clicks", "clicks", "conversions", "conversions", "refund"];
    const queues = Array.from({ length: WORKERS }, () =>
      Array.from({ length: BATCHES_PER_WORKER }, () => batch(pick(kinds))),
    );
    const failures: string[] = [];
    await Promise.all(
      queues.map(async (queue) => {
        for (const write of queue) {
          // A deadlock costs its victim deadlock_timeout (1 s): the first one is enough.
          if (failures.length > 0) return;
          try {
            await write();
          } catch (error) {
            const cause = (error as { cause?: { code?: string; message?: string } }).cause;
            failures.push(`${cause?.code ?? ""} ${cause?.message ?? (error as Error).message}`.slice(0, 200));
          }
        }
      }),
    );
    expect(failures).toEqual([]);

    // The days are the events' (and the refunds'), each on its UTC day.
    const days = rowsOf<Record<string, string>>(
      await database.db.execute(sql`
        select day::text as day, source_org_id, target_org_id, clicks::text as clicks, leads::text as leads
        from pair_daily_stats where clicks <> 0 or leads <> 0 order by 1, 2, 3`),
    );
    const fromEvents = rowsOf<Record<string, string>>(
      await database.db.execute(sql`
        select day::text as day, source_org_id, target_org_id, sum(clicks)::text as clicks, sum(leads)::text as leads
        from (
          select (occurred_at at time zone 'UTC')::date, source_org_id, target_org_id, verified::int, 0
          from click_events
          union all
          select (created_at at time zone 'UTC')::date, source_org_id, target_org_id, 0, is_lead::int
          from conversions
        ) events (day, source_org_id, target_org_id, clicks, leads)
        group by 1, 2, 3 having sum(clicks) <> 0 or sum(leads) <> 0 order by 1, 2, 3`),
    );
    expect(days).toEqual(fromEvents);
    expect(new Set(days.map((row) => row.day))).toEqual(
      new Set(
        MIDNIGHTS.flatMap((day) => [new Date(Date.parse(day) - 86_400_000).toISOString().slice(0, 10), day]),
      ),
    );
    const revenue = rowsOf<Record<string, string>>(
      await database.db.execute(sql`
        select day::text as day, source_org_id, target_org_id, currency, value_minor::text as value_minor,
          conversions::text as conversions
        from pair_daily_revenue where value_minor <> 0 or conversions <> 0 order by 1, 2, 3, 4`),
    );
    const revenueFromEvents = rowsOf<Record<string, string>>(
      await database.db.execute(sql`
        select day::text as day, source_org_id, target_org_id, currency, sum(value_minor)::text as value_minor,
          sum(conversions)::text as conversions
        from (
          select (created_at at time zone 'UTC')::date, source_org_id, target_org_id, currency, value_minor, 1
          from conversions where value_minor is not null
          union all
          select day, source_org_id, target_org_id, currency, value_minor, 0
          from json_to_recordset(${JSON.stringify(refunds)}::json)
            as x(day date, source_org_id text, target_org_id text, currency text, value_minor bigint)
        ) events (day, source_org_id, target_org_id, currency, value_minor, conversions)
        group by 1, 2, 3, 4 having sum(value_minor) <> 0 or sum(conversions) <> 0 order by 1, 2, 3, 4`),
    );
    expect(revenue).toEqual(revenueFromEvents);
    expect(refunds.length).toBeGreaterThan(0);

    // Every year, month and month part is the sum of its days, both ways.
    const { summed, kept, summedRevenue, keptRevenue } = await periodsAgainstDays(database.db);
    expect(kept).toEqual(summed);
    expect(keptRevenue).toEqual(summedRevenue);
    expect(new Set(kept.map((row) => row.period))).toEqual(new Set(["year", "month", "part"]));
  }, 60_000);
});
