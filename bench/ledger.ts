// Issue 29's target: the partners' ledger (`GET /api/metrics/partners`) under 50 ms p99 for an
// organization with 1,000 partners and 10⁷ clicks, on PostgreSQL. The ledger reads the per-pair
// daily roll-ups only, so the seed writes those (as the click recorder and the conversion store
// would have left them after a year) and no raw events: 10⁷ click_events rows would take the seed
// minutes and the ledger would never read one of them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DAY_MS, windowStart } from "@shared/days";
import type { PartnersLedger } from "@shared/reciprocity-schemas";
import { type SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { type Db, rowsOf } from "../src/server/db/client";
import { type Span, type WindowParts, windowParts } from "../src/server/modules/reciprocity/period-window";
import { startBuddy } from "../src/server/testing/buddy-process";
import { createScratchDatabase } from "../src/server/testing/database";
import { load, pinServer, processCpuMs, record } from "./harness";

export const LEDGER_PARTNERS = 1_000;
/** Verified clicks both ways over the year, exactly. */
export const LEDGER_CLICKS = 10_000_000;
const LEDGER_DAYS = 365;
/**
 * Partners on the caller's block list, or who put the caller on theirs (traffic from before the
 * block stays in the roll-ups): every 50th partner blocked by the caller, every 50th from the 25th
 * blocking the caller.
 */
const BLOCKED_EVERY = 50;
const LISTED = LEDGER_PARTNERS - 2 * (LEDGER_PARTNERS / BLOCKED_EVERY);
const P99_MS = 50;
/** Days per statement (146,000 roll-up rows). */
const DAYS_PER_CHUNK = 73;
const PREFIX = "seed-ledger-";

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

/**
 * One connection without the server pool's statement bounds (5 s): on a busy machine a chunk of the
 * seed, or the VACUUM after it, may take longer.
 */
async function connect(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { db: drizzle({ client, casing: "snake_case" }) as unknown as Db, close: () => client.end() };
}

/** A daily row's year, month and month part: the periods the triggers add it into (migration 0019). */
const periodsOf = sql`buddy_period_starts(d.day) p`;

/** The daily rows of clicks and leads, from both sides and by period: what the periods sum up. */
const trafficByPeriod = sql`
  select organization_id, partner_id, period, starts, sum(clicks_sent) as clicks_sent,
    sum(clicks_received) as clicks_received, sum(leads_sent) as leads_sent, sum(leads_received) as leads_received
  from (
    select d.source_org_id, d.target_org_id, p.period, p.starts, d.clicks, 0, d.leads, 0
    from pair_daily_stats d, lateral ${periodsOf}
    union all
    select d.target_org_id, d.source_org_id, p.period, p.starts, 0, d.clicks, 0, d.leads
    from pair_daily_stats d, lateral ${periodsOf}
  ) sides (organization_id, partner_id, period, starts, clicks_sent, clicks_received, leads_sent, leads_received)
  group by 1, 2, 3, 4`;

/**
 * A year of the caller's traffic with its partners, in the roll-ups, oldest day first as the days
 * came: per partner and day, clicks each way (pair_daily_stats, 2 × 365 × 1,000 rows), about one
 * lead in eight clicks, and on a quarter of the pair-days a purchase total (pair_daily_revenue) in
 * the advertiser's currency: the partner's (USD, EUR or JPY) for what the caller sent it, the
 * caller's (USD) for what it sent the caller. Row k (0 … 729,999) has 13 clicks, plus or minus the partner's lean
 * (−10 … 10, sent one way and taken back the other, so it cancels), plus 1 for 51 rows in 73:
 * 730,000 × 13 + 510,000 = 10⁷ clicks exactly.
 */
export async function seedLedger(db: Db, callerId: string) {
  const started = performance.now();
  await db.execute(sql`
    insert into organizations (id, name, domain, website, verification_token, domain_verified_at,
      domain_verification_method)
    select ${PREFIX} || p, 'Ledger partner ' || lpad(p::text, 4, '0'), 'ledger-partner-' || p || '.bench.example',
      'https://ledger-partner-' || p || '.bench.example', md5('ledger' || p), now(), 'email'
    from generate_series(1, ${LEDGER_PARTNERS}::int) p`);
  // Buddies both ways, but for the blocked: the caller's competitors, and partners with the caller
  // on their own block list.
  await db.execute(sql`
    insert into relationships (id, source_org_id, target_org_id, type, status)
    select ${PREFIX} || 'out-' || p, ${callerId}, ${PREFIX} || p,
      case when p % ${BLOCKED_EVERY}::int = 0 then 'competitor' else 'complement' end, 'active'
    from generate_series(1, ${LEDGER_PARTNERS}::int) p
    union all
    select ${PREFIX} || 'back-' || p, ${PREFIX} || p, ${callerId},
      case when p % ${BLOCKED_EVERY}::int = ${BLOCKED_EVERY / 2}::int then 'competitor' else 'complement' end, 'active'
    from generate_series(1, ${LEDGER_PARTNERS}::int) p where p % ${BLOCKED_EVERY}::int <> 0`);
  // The periods' rows are what the daily tables' triggers (migration 0016) would have made of the
  // days, written in one statement per table instead of one trigger's upsert per daily row: 730,000
  // of those took a trial seed from half a minute to a minute and a half, and left the roll-up's
  // table and indexes bloated with dead versions of every row, which no live table is (autovacuum
  // reclaims them as they come). In the order the periods begin, as a live table's rows are
  // created; every answer measured is checked against sums of the days.
  const clicks = await db.transaction(async (tx) => {
    await tx.execute(sql`alter table pair_daily_stats disable trigger pair_daily_stats_into_periods`);
    await tx.execute(sql`alter table pair_daily_revenue disable trigger pair_daily_revenue_into_periods`);
    let sum = 0;
    for (let newest = LEDGER_DAYS - DAYS_PER_CHUNK; newest >= 0; newest -= DAYS_PER_CHUNK) {
      const [chunk] = await rows<{ clicks: string }>(
        tx,
        sql`
      with cells as (
        select d, dir, p, (d * 2 + dir) * ${LEDGER_PARTNERS}::int + p - 1 as k,
          (now() at time zone 'UTC')::date - d as day,
          case when dir = 0 then ${callerId} else ${PREFIX} || p end as source_org_id,
          case when dir = 0 then ${PREFIX} || p else ${callerId} end as target_org_id
        from generate_series(${newest + DAYS_PER_CHUNK - 1}::int, ${newest}::int, -1) d,
          generate_series(0, 1) dir, generate_series(1, ${LEDGER_PARTNERS}::int) p
      ), counted as (
        select *, 13 + (case when dir = 0 then 1 else -1 end) * (p % 21 - 10)
          + case when k % 73 < 51 then 1 else 0 end as clicks
        from cells
      ), stats as (
        insert into pair_daily_stats (day, source_org_id, target_org_id, clicks, leads)
        select day, source_org_id, target_org_id, clicks, clicks / 8 from counted order by d desc, dir, p
        returning clicks
      ), earned as (
        insert into pair_daily_revenue (day, source_org_id, target_org_id, currency, value_minor, conversions)
        select day, source_org_id, target_org_id,
          case when dir = 0 then (array['USD', 'EUR', 'JPY'])[1 + p % 3] else 'USD' end,
          1000 + (k::bigint * 7919) % 9000, 1 + k % 3
        from counted where (d + p) % 4 = 0 order by d desc, dir, p
      )
      select sum(clicks)::text as clicks from stats`,
      );
      sum += Number(chunk?.clicks ?? 0);
    }
    await tx.execute(sql`
      insert into partner_period_stats (organization_id, partner_id, period, starts, clicks_sent, clicks_received,
        leads_sent, leads_received)
      ${trafficByPeriod}
      order by starts, period, organization_id, partner_id`);
    await tx.execute(sql`
      insert into partner_period_revenue (organization_id, partner_id, period, starts, currency, value_sent,
        value_received, conversions_sent, conversions_received)
      select organization_id, partner_id, period, starts, currency, sum(value_sent), sum(value_received),
        sum(conversions_sent), sum(conversions_received)
      from (
        select d.source_org_id, d.target_org_id, p.period, p.starts, d.currency, d.value_minor, 0, d.conversions, 0
        from pair_daily_revenue d, lateral ${periodsOf}
        union all
        select d.target_org_id, d.source_org_id, p.period, p.starts, d.currency, 0, d.value_minor, 0, d.conversions
        from pair_daily_revenue d, lateral ${periodsOf}
      ) sides (organization_id, partner_id, period, starts, currency, value_sent, value_received, conversions_sent,
        conversions_received)
      group by 1, 2, 3, 4, 5
      order by starts, period, organization_id, partner_id, currency`);
    await tx.execute(sql`alter table pair_daily_stats enable trigger pair_daily_stats_into_periods`);
    await tx.execute(sql`alter table pair_daily_revenue enable trigger pair_daily_revenue_into_periods`);
    return sum;
  });
  if (clicks !== LEDGER_CLICKS) throw new Error(`ledger seed: ${clicks} clicks, not ${LEDGER_CLICKS}`);
  // As autovacuum leaves tables that grow: planner statistics, and the visibility map that lets a
  // scan answer from an index alone.
  await db.execute(sql`vacuum (analyze) organizations, relationships, pair_daily_stats, pair_daily_revenue,
    partner_period_stats, partner_period_revenue`);
  return { seconds: (performance.now() - started) / 1000 };
}

type Expected = { partners: number; clicks: number; leads: number; usdSentCents: number };

/** What the ledger must answer over `days`, summed straight from the seeded roll-ups. */
async function expected(db: Db, callerId: string, days: number): Promise<Expected> {
  const first = windowStart(days);
  const blocked = sql`(select case when source_org_id = ${callerId} then target_org_id else source_org_id end
    from relationships where type = 'competitor' and (source_org_id = ${callerId} or target_org_id = ${callerId}))`;
  const [traffic] = await rows<{ clicks: string; leads: string }>(
    db,
    sql`select coalesce(sum(clicks), 0)::text as clicks, coalesce(sum(leads), 0)::text as leads
      from pair_daily_stats where day >= ${first}::date
        and (source_org_id = ${callerId} and target_org_id not in ${blocked}
          or target_org_id = ${callerId} and source_org_id not in ${blocked})`,
  );
  const [money] = await rows<{ cents: string }>(
    db,
    sql`select coalesce(sum(value_minor), 0)::text as cents from pair_daily_revenue
      where day >= ${first}::date and currency = 'USD' and source_org_id = ${callerId}
        and target_org_id not in ${blocked}`,
  );
  return {
    partners: LISTED,
    clicks: Number(traffic?.clicks),
    leads: Number(traffic?.leads),
    usdSentCents: Number(money?.cents),
  };
}

/** The answer's totals: partners listed, clicks and leads both ways, US cents sent. */
function totals(ledger: PartnersLedger): Expected {
  let clicks = 0;
  let leads = 0;
  let usdSentCents = 0;
  for (const partner of ledger.partners) {
    clicks += partner.clicks.sent + partner.clicks.received;
    leads += partner.leads.sent + partner.leads.received;
    usdSentCents += Math.round(
      (partner.revenue.sent.find((money) => money.currency === "USD")?.value ?? 0) * 100,
    );
  }
  return { partners: ledger.partners.length, clicks, leads, usdSentCents };
}

/** What a window reads per partner: days (from each side), month parts, months and years. */
function readsPerPartner(parts: WindowParts, today: Date) {
  const days = (Date.parse(parts.days.to) - Date.parse(parts.days.from)) / DAY_MS;
  const units = (span: Span, step: (ms: number) => number) => {
    let n = 0;
    for (let at = Date.parse(span.from); at < Date.parse(span.to); at = step(at)) n++;
    return n;
  };
  const nextPart = (ms: number) => {
    const at = new Date(ms);
    return at.getUTCDate() >= 25
      ? Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)
      : Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 8);
  };
  const nextMonth = (ms: number) =>
    Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth() + 1, 1);
  const years = Math.max(0, today.getUTCFullYear() - Number(parts.years.slice(0, 4)) + 1);
  const count = { days, parts: units(parts.parts, nextPart), months: units(parts.months, nextMonth), years };
  return { ...count, rows: 2 * count.days + count.parts + count.months + count.years };
}

/**
 * The windows measured: 30 days, a year, and the longest window that reads the most rows per
 * partner (what 30 days or a year read depends on the date).
 */
function windows() {
  const today = new Date();
  const read = (days: number) => readsPerPartner(windowParts(windowStart(days, today)), today);
  let worst = LEDGER_DAYS;
  for (let days = LEDGER_DAYS; days > 0; days--) if (read(days).rows > read(worst).rows) worst = days;
  return [30, LEDGER_DAYS, worst].map((days) => {
    const r = read(days);
    return {
      days,
      label:
        `${LEDGER_PARTNERS} partners, 10⁷ clicks; per partner ${r.rows} rows: ` +
        `${r.days} days × 2 sides, ${r.parts} parts, ${r.months} months, ${r.years} years`,
    };
  });
}

/**
 * The ledger over each window, one request at a time, as a person opening the page; each answer
 * checked against the seed first, then a second of warm-up, then measured.
 */
export async function benchLedger(database: "PostgreSQL", serverUrl: string) {
  const scratch = await createScratchDatabase(serverUrl, "buddy_bench_ledger");
  const dataDir = mkdtempSync(path.join(tmpdir(), "buddy-bench-ledger-"));
  try {
    const buddy = await startBuddy({
      databaseUrl: scratch.url,
      dataDir,
      stdio: "capture",
      env: { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info" },
      nodeArgs: (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean),
    });
    pinServer(buddy.pid);
    const direct = await connect(scratch.url);
    try {
      const token = await buddy.createOrganization("ledgercaller", "A help desk for support teams");
      const [caller] = await rows<{ id: string }>(
        direct.db,
        sql`select id from organizations where domain = 'ledgercaller.bench.example'`,
      );
      if (!caller) throw new Error("ledger bench: the caller's organization is missing");
      const seeded = await seedLedger(direct.db, caller.id);
      console.log(
        `${database}: seeded ${LEDGER_PARTNERS} partners and ${LEDGER_CLICKS} clicks in the roll-ups (${LEDGER_PARTNERS * LEDGER_DAYS * 2} rows) in ${seeded.seconds.toFixed(1)} s`,
      );
      const headers = { authorization: `Bearer ${token}` };
      for (const { days, label } of windows()) {
        const url = `${buddy.origin}/api/metrics/partners?days=${days}`;
        const started = performance.now();
        const response = await fetch(url, { headers });
        const answer = (await response.json()) as PartnersLedger;
        const first = performance.now() - started;
        const got = totals(answer);
        const want = await expected(direct.db, caller.id, days);
        await load(url, 1, { headers, duration: 1 });
        const cpuBefore = processCpuMs(buddy.pid);
        const result = await load(url, 1, { headers });
        const cpuAfter = processCpuMs(buddy.pid);
        const p99 = result.latency.p99;
        const matches = (Object.keys(want) as (keyof Expected)[]).every((key) => got[key] === want[key]);
        record({
          database,
          name: `GET /api/metrics/partners?days=${days} (${label})`,
          connections: 1,
          rps: Math.round(result.rps),
          p50: result.latency.p50,
          p99,
          ratio:
            `first ${Math.round(first)} ms; ${got.partners} partners, ${got.clicks} clicks, ` +
            `${got.leads} leads, USD sent ${got.usdSentCents / 100}` +
            (matches ? " (= seed)" : ` (seeded: ${JSON.stringify(want)})`),
          cpu:
            cpuBefore === null || cpuAfter === null
              ? undefined
              : String(Math.round(((cpuAfter - cpuBefore) * 1000) / Math.max(1, result.requests.total))),
          target: `p99 < ${P99_MS} ms, answer = seed`,
          ok:
            response.status === 200 && matches && p99 < P99_MS && result.non2xx === 0 && result.errors === 0,
        });
      }
    } finally {
      await direct.close();
      const code = await buddy.stop();
      if (code !== 0)
        console.warn(`${database}: the server exited with ${code} on SIGTERM\n${buddy.output()}`);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    // BENCH_KEEP_DATABASE=1 leaves the seeded database for EXPLAIN; its URL is printed.
    if (process.env.BENCH_KEEP_DATABASE === "1") console.log(`${database}: kept ${scratch.url}`);
    else await scratch.drop();
  }
}
