import { DAY_MS, isoDay } from "@shared/days";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, rowsOf } from "../../db/client";
import { openTestDatabase } from "../../testing/database";
import { periodStarts } from "./period-window";

/**
 * The bucketing of days into periods is defined twice, in the database (`buddy_period_starts`,
 * migration 0019, which the roll-ups' triggers call) and in TypeScript (`periodStarts`, beside the
 * window that reads them): held equal here for every day of 2024 (a leap year) and 2025.
 */
let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

type Row = { day: string; period: string; starts: string };

const everyDay = sql`
  select d::text as day, p.period, p.starts::text as starts
  from generate_series(0, 730) n, lateral (select '2024-01-01'::date + n as d) days,
    lateral buddy_period_starts(d) p
  order by 1, 2`;

function expected(): Row[] {
  const rows: Row[] = [];
  for (let at = Date.UTC(2024, 0, 1); at <= Date.UTC(2025, 11, 31); at += DAY_MS) {
    const day = isoDay(at);
    const starts = periodStarts(day);
    for (const period of ["month", "part", "year"] as const)
      rows.push({ day, period, starts: starts[period] });
  }
  return rows;
}

describe("a day's periods", () => {
  it("are the same in the database and in TypeScript, every day of two years", async () => {
    const rows = rowsOf<Row>(await database.db.execute(everyDay));
    expect(rows).toHaveLength(731 * 3);
    expect(rows).toEqual(expected());
    // The edges: a leap day, a part's last day and the next one's first, the 25th to the month's end.
    const of = (day: string) =>
      Object.fromEntries(rows.filter((row) => row.day === day).map((row) => [row.period, row.starts]));
    expect(of("2024-02-29")).toEqual({ year: "2024-01-01", month: "2024-02-01", part: "2024-02-25" });
    expect(of("2025-01-08")).toEqual({ year: "2025-01-01", month: "2025-01-01", part: "2025-01-01" });
    expect(of("2025-01-09")).toEqual({ year: "2025-01-01", month: "2025-01-01", part: "2025-01-09" });
    expect(of("2025-12-31")).toEqual({ year: "2025-01-01", month: "2025-12-01", part: "2025-12-25" });
  });

  it("are IMMUTABLE: the same whatever the session's time zone", async () => {
    const [fn] = rowsOf<{ volatility: string }>(
      await database.db.execute(
        sql`select provolatile as volatility from pg_proc where proname = 'buddy_period_starts'`,
      ),
    );
    expect(fn?.volatility).toBe("i");
    const utc = rowsOf<Row>(await database.db.execute(everyDay));
    const elsewhere = await database.db.transaction(async (tx) => {
      // Midnight never happens there on some days (daylight saving starts at 00:00).
      await tx.execute(sql`set local time zone 'America/Santiago'`);
      return rowsOf<Row>(await tx.execute(everyDay));
    });
    expect(elsewhere).toEqual(utc);
  });
});
