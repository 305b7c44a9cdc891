import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../testing/database";
import { periodsAgainstDays } from "../testing/rollups";
import { type Database, rowsOf } from "./client";

/**
 * Migrations 0016 and 0019: the periods' roll-up rows are the sums of their days, whatever writes the
 * days.
 */
let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

describe("the period roll-ups", () => {
  it("follow every insert, upsert, update and delete of the daily ones", async () => {
    const { db } = database;
    await db.execute(sql`
      insert into pair_daily_stats (day, source_org_id, target_org_id, clicks, leads) values
        ('2026-01-30', 'a', 'b', 3, 1), ('2026-01-31', 'a', 'b', 4, 0), ('2026-02-01', 'a', 'b', 5, 2),
        ('2026-01-31', 'b', 'a', 7, 0)`);
    // As the click and conversion stores write: an upsert adding to a day.
    await db.execute(sql`
      insert into pair_daily_stats (day, source_org_id, target_org_id, clicks, leads) values
        ('2026-01-31', 'a', 'b', 10, 0), ('2026-02-02', 'a', 'b', 1, 0)
      on conflict (day, source_org_id, target_org_id)
      do update set clicks = pair_daily_stats.clicks + excluded.clicks`);
    await db.execute(sql`update pair_daily_stats set leads = leads + 3 where day = '2026-02-01'`);
    // A row moved to another month and pair, and one deleted.
    await db.execute(
      sql`update pair_daily_stats set day = '2026-03-05', target_org_id = 'c' where day = '2026-01-30'`,
    );
    await db.execute(sql`delete from pair_daily_stats where day = '2026-01-31' and source_org_id = 'b'`);
    await db.execute(sql`
      insert into pair_daily_revenue (day, source_org_id, target_org_id, currency, value_minor, conversions) values
        ('2026-01-31', 'a', 'b', 'USD', 4900, 1), ('2026-02-01', 'a', 'b', 'USD', 100, 1),
        ('2026-02-01', 'a', 'b', 'EUR', 300, 2)
      on conflict (day, source_org_id, target_org_id, currency)
      do update set value_minor = pair_daily_revenue.value_minor + excluded.value_minor,
        conversions = pair_daily_revenue.conversions + excluded.conversions`);
    await db.execute(sql`
      insert into pair_daily_revenue (day, source_org_id, target_org_id, currency, value_minor, conversions)
      values ('2026-01-31', 'a', 'b', 'USD', 100, 1)
      on conflict (day, source_org_id, target_org_id, currency)
      do update set value_minor = pair_daily_revenue.value_minor + excluded.value_minor,
        conversions = pair_daily_revenue.conversions + excluded.conversions`);
    await db.execute(sql`update pair_daily_revenue set currency = 'JPY' where currency = 'EUR'`);

    const { summed, kept, summedRevenue, keptRevenue } = await periodsAgainstDays(database.db);
    expect(kept).toEqual(summed);
    expect(keptRevenue).toEqual(summedRevenue);
    const months = kept
      .filter((row) => row.period === "month")
      .map((row) => [row.organization_id, row.partner_id, row.starts, row.clicks_sent, row.clicks_received]);
    expect(months).toEqual([
      ["a", "b", "2026-01-01", "14", "0"],
      ["a", "b", "2026-02-01", "6", "0"],
      ["a", "c", "2026-03-01", "3", "0"],
      ["b", "a", "2026-01-01", "0", "14"],
      ["b", "a", "2026-02-01", "0", "6"],
      ["c", "a", "2026-03-01", "0", "3"],
    ]);
    const ab = (period: string) =>
      kept
        .filter((row) => row.organization_id === "a" && row.partner_id === "b" && row.period === period)
        .map((row) => [row.starts, row.clicks_sent]);
    expect(ab("year")).toEqual([["2026-01-01", "20"]]);
    expect(ab("part")).toEqual([
      ["2026-01-25", "14"],
      ["2026-02-01", "6"],
    ]);
    expect(
      kept.find((row) => row.organization_id === "b" && row.period === "month" && row.starts === "2026-02-01")
        ?.leads_received,
    ).toBe("5");
    const revenue = keptRevenue.filter((row) => row.organization_id === "a" && row.period === "month");
    expect(revenue.map((row) => [row.starts, row.currency, row.value_sent, row.conversions_sent])).toEqual([
      ["2026-01-01", "USD", "5000", "2"],
      ["2026-02-01", "JPY", "300", "2"],
      ["2026-02-01", "USD", "100", "1"],
    ]);
  });

  it("counts an organization's clicks on its own links once each way", async () => {
    await database.db.execute(sql`
      insert into pair_daily_stats (day, source_org_id, target_org_id, clicks, leads)
      values ('2026-04-02', 'self', 'self', 2, 1)`);
    const { summed, kept } = await periodsAgainstDays(database.db);
    expect(kept).toEqual(summed);
    expect(kept.find((row) => row.organization_id === "self" && row.period === "year")).toMatchObject({
      clicks_sent: "2",
      clicks_received: "2",
    });
  });

  it("take a writer's days in any order through the add functions, a refund taking revenue away", async () => {
    const { db } = database;
    await db.execute(sql`
      select pair_daily_stats_add(array[
        row('2026-06-02', 'x', 'y', 3, 0, 0), row('2026-05-31', 'y', 'x', 1, 1, 1), row('2026-06-02', 'x', 'y', 2, 0, 0)
      ]::pair_daily_stats[])`);
    await db.execute(sql`
      select pair_daily_revenue_add(array[row('2026-06-02', 'x', 'y', 'USD', 500, 1)]::pair_daily_revenue[])`);
    await db.execute(sql`
      select pair_daily_revenue_add(array[row('2026-06-02', 'x', 'y', 'USD', -200, 0)]::pair_daily_revenue[])`);
    const days = await db.execute(sql`
      select d.day::text as day, d.clicks, d.leads, r.value_minor::text as value, r.conversions
      from pair_daily_stats d
      left join pair_daily_revenue r using (day, source_org_id, target_org_id)
      where d.source_org_id in ('x', 'y') order by 1`);
    expect(rowsOf(days)).toEqual([
      { day: "2026-05-31", clicks: 1, leads: 1, value: null, conversions: null },
      { day: "2026-06-02", clicks: 5, leads: 0, value: "300", conversions: 1 },
    ]);
    const { summed, kept, summedRevenue, keptRevenue } = await periodsAgainstDays(db);
    expect(kept).toEqual(summed);
    expect(keptRevenue).toEqual(summedRevenue);
    expect(
      kept.find((row) => row.organization_id === "y" && row.period === "year" && row.partner_id === "x"),
    ).toMatchObject({ clicks_sent: "1", clicks_received: "5", leads_sent: "1" });
  });
});
