import { DAY_MS, isoDay } from "@shared/days";
import { type SQL, sql } from "drizzle-orm";

/** Days, month parts or months in [from, to), added (sign 1) or taken away (sign -1). */
export type Span = { from: string; to: string; sign: 1 | -1 };

/**
 * A window of days from a first day to today, as the roll-ups read it. Nothing is dated after
 * today, so the window is everything from its first day on: the years from `years` on
 * (`partner_period_stats`), plus or minus the months, the month parts (days 1–8, 9–16, 17–24 and
 * 25 to the month's end) and the days (`pair_daily_*`) of its spans. Each level goes the shorter
 * way to the next period boundary: a first day of March 30 adds March 30 and 31 to April onwards;
 * a first day of March 3 takes March 1 and 2 away from March onwards. So a window reads at most
 * 4 days, 2 month parts, 6 months and, for up to a year, 2 years per partner.
 */
export type WindowParts = { years: string; months: Span; parts: Span; days: Span };

/** Where a month part starts (days 1, 9, 17 and 25), and the next one (the next month's first). */
function partOf(ms: number) {
  const at = new Date(ms);
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  const index = Math.min(Math.floor((at.getUTCDate() - 1) / 8), 3);
  return {
    index,
    starts: Date.UTC(year, month, 1 + index * 8),
    next: index === 3 ? Date.UTC(year, month + 1, 1) : Date.UTC(year, month, 9 + index * 8),
  };
}

/**
 * One level: from `cursor` to `end` (the enclosing period's end) adding the `after` units, or from
 * `start` taking the `before` units away, whichever is fewer. Answers the span and where the next
 * level up starts: `end` or `start`.
 */
function level(cursor: number, start: number, end: number, before: number, after: number) {
  if (cursor === start || before === 0) return { span: empty(cursor), next: cursor };
  return after <= before
    ? { span: { from: isoDay(cursor), to: isoDay(end), sign: 1 as const }, next: end }
    : { span: { from: isoDay(start), to: isoDay(cursor), sign: -1 as const }, next: start };
}

const empty = (at: number): Span => ({ from: isoDay(at), to: isoDay(at), sign: 1 });

/**
 * The periods a day (YYYY-MM-DD, UTC) is added into, by their first days: what the database's
 * `buddy_period_starts` answers (migration 0019), checked against it for every day of two years
 * (period-starts.api.test.ts).
 */
export function periodStarts(day: string): { year: string; month: string; part: string } {
  const ms = Date.parse(`${day}T00:00:00Z`);
  const at = new Date(ms);
  return {
    year: isoDay(Date.UTC(at.getUTCFullYear(), 0, 1)),
    month: isoDay(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)),
    part: isoDay(partOf(ms).starts),
  };
}

/** `first`: the window's first day, YYYY-MM-DD (UTC). */
export function windowParts(first: string): WindowParts {
  const firstMs = Date.parse(`${first}T00:00:00Z`);
  const part = partOf(firstMs);
  const days = level(
    firstMs,
    part.starts,
    part.next,
    (firstMs - part.starts) / DAY_MS,
    (part.next - firstMs) / DAY_MS,
  );

  const atPart = new Date(days.next);
  const monthStart = Date.UTC(atPart.getUTCFullYear(), atPart.getUTCMonth(), 1);
  const monthEnd = Date.UTC(atPart.getUTCFullYear(), atPart.getUTCMonth() + 1, 1);
  const partIndex = partOf(days.next).index;
  const parts = level(days.next, monthStart, monthEnd, partIndex, 4 - partIndex);

  const atMonth = new Date(parts.next);
  const yearStart = Date.UTC(atMonth.getUTCFullYear(), 0, 1);
  const yearEnd = Date.UTC(atMonth.getUTCFullYear() + 1, 0, 1);
  const monthIndex = atMonth.getUTCMonth();
  const months = level(parts.next, yearStart, yearEnd, monthIndex, 12 - monthIndex);

  return { years: isoDay(months.next), months: months.span, parts: parts.span, days: days.span };
}

/**
 * The rows whose sums per partner are the organization's verified clicks and leads with it over
 * the window: `partner`, `clicks_sent` (the organization's, as the sharer, to the partner's ads),
 * `clicks_received` (the partner's to the organization's), `leads_sent`, `leads_received`, and
 * `proven_sent`, `proven_received`: the leads of those the advertiser recorded by key or Stripe. The
 * periods are the organization's rows of `partner_period_stats` (both ways in a row); the days,
 * each side of `pair_daily_stats` through its own index.
 */
export function trafficRows(organizationId: string, window: WindowParts): SQL {
  const { years, months, parts, days } = window;
  const periods = (period: string, span: Span) => sql`
    select partner_id, ${span.sign}::int * clicks_sent, ${span.sign}::int * clicks_received,
      ${span.sign}::int * leads_sent, ${span.sign}::int * leads_received,
      ${span.sign}::int * proven_leads_sent, ${span.sign}::int * proven_leads_received
    from partner_period_stats
    where organization_id = ${organizationId} and period = ${period}
      and starts >= ${span.from}::date and starts < ${span.to}::date`;
  return sql`
    select partner_id as partner, clicks_sent, clicks_received, leads_sent, leads_received,
      proven_leads_sent as proven_sent, proven_leads_received as proven_received
    from partner_period_stats
    where organization_id = ${organizationId} and period = 'year' and starts >= ${years}::date
    union all ${periods("month", months)}
    union all ${periods("part", parts)}
    union all
    select target_org_id, ${days.sign}::int * clicks, 0, ${days.sign}::int * leads, 0,
      ${days.sign}::int * proven_leads, 0
    from pair_daily_stats
    where source_org_id = ${organizationId} and day >= ${days.from}::date and day < ${days.to}::date
    union all
    select source_org_id, 0, ${days.sign}::int * clicks, 0, ${days.sign}::int * leads,
      0, ${days.sign}::int * proven_leads
    from pair_daily_stats
    where target_org_id = ${organizationId} and day >= ${days.from}::date and day < ${days.to}::date`;
}

/** `trafficRows` summed per partner; a partner with nothing in the window is not a row. */
export function trafficByPartner(organizationId: string, window: WindowParts): SQL {
  return sql`
    select partner, sum(clicks_sent) as clicks_sent, sum(clicks_received) as clicks_received,
      sum(leads_sent) as leads_sent, sum(leads_received) as leads_received,
      sum(proven_sent) as proven_sent, sum(proven_received) as proven_received
    from (${trafficRows(organizationId, window)}) sides
    group by partner
    having sum(clicks_sent) <> 0 or sum(clicks_received) <> 0 or sum(leads_sent) <> 0 or sum(leads_received) <> 0`;
}

/**
 * Per partner and currency, the revenue (minor units) the organization's links earned the partner
 * (`sent`) and the partner's links earned it (`received`) over the window, net of refunds, and the
 * sales (conversions with a value, `sales_sent`, `sales_received`), read as `trafficRows` reads the
 * clicks. A currency with no conversion in the window either way is not a row.
 */
export function revenueByPartner(organizationId: string, window: WindowParts): SQL {
  const { years, months, parts, days } = window;
  const periods = (period: string, span: Span) => sql`
    select partner_id, currency, ${span.sign}::int * value_sent, ${span.sign}::int * value_received,
      ${span.sign}::int * conversions_sent, ${span.sign}::int * conversions_received
    from partner_period_revenue
    where organization_id = ${organizationId} and period = ${period}
      and starts >= ${span.from}::date and starts < ${span.to}::date`;
  return sql`
    select partner, currency, sum(sent) as sent, sum(received) as received, sum(sales_sent) as sales_sent,
      sum(sales_received) as sales_received
    from (
      select partner_id as partner, currency, value_sent as sent, value_received as received,
        conversions_sent as sales_sent, conversions_received as sales_received
      from partner_period_revenue
      where organization_id = ${organizationId} and period = 'year' and starts >= ${years}::date
      union all ${periods("month", months)}
      union all ${periods("part", parts)}
      union all
      select target_org_id, currency, ${days.sign}::int * value_minor, 0, ${days.sign}::int * conversions, 0
      from pair_daily_revenue
      where source_org_id = ${organizationId} and day >= ${days.from}::date and day < ${days.to}::date
      union all
      select source_org_id, currency, 0, ${days.sign}::int * value_minor, 0, ${days.sign}::int * conversions
      from pair_daily_revenue
      where target_org_id = ${organizationId} and day >= ${days.from}::date and day < ${days.to}::date
    ) sides
    group by partner, currency
    having sum(sales_sent) <> 0 or sum(sales_received) <> 0`;
}
