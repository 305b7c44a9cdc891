import { formatMinorUnits } from "@shared/money";
import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client";
import { clickTimeOf } from "../tracking/clicks/click-id";

export type ExportKind = "conversions" | "clicks";
export type Direction = "sent" | "received";
/** UTC instants: the first one included, the second one excluded. */
export type ExportRange = { start: string; end: string };

/**
 * Rows per query. Each page is a short statement of its own (no transaction held while a slow
 * client reads, which on PGlite's single connection would hold every click back), read through the
 * direction's (organization, time) index from where the last page ended.
 */
const PAGE_ROWS = 500;

/** A row as the CSV writes it; `at` and `id` order the rows and resume the next page. */
export type ExportRow = { at: string; id: string; cells: (string | null)[] };

/**
 * The range, and on every page after the first, what follows the last row read: the plain bound on
 * time lets the (organization, time) index start at that row, and the row comparison skips it and
 * its equals before it. The row comparison alone is only a filter: every page would scan the range
 * from its start.
 */
function pageWindow(at: SQL, id: SQL, range: ExportRange, after: ExportRow | null): SQL {
  const inRange = sql`${at} >= ${range.start}::timestamptz and ${at} < ${range.end}::timestamptz`;
  if (!after) return inRange;
  return sql`${inRange} and ${at} >= ${after.at}::timestamptz and (${at}, ${id}) > (${after.at}::timestamptz, ${after.id})`;
}

/** Microseconds, UTC, ISO 8601: exact, so the next page resumes after the last row and not before. */
const ISO_AT = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The caller's side of the event in that direction, and the partner's. */
function sides(direction: Direction) {
  return direction === "sent"
    ? { own: sql.raw("source_org_id"), partner: sql.raw("target_org_id") }
    : { own: sql.raw("target_org_id"), partner: sql.raw("source_org_id") };
}

function conversionPage(
  organizationId: string,
  direction: Direction,
  range: ExportRange,
  after: ExportRow | null,
) {
  const { own, partner } = sides(direction);
  return sql`
    select c.id, ${ISO_AT(sql`c.created_at`)} as at, c.type, p.id as partner_id, p.name as partner_name,
      c.click_id, c.customer_id, c.value_minor::text as value_minor, c.currency, c.event_id, e.collateral_id,
      c.refunded_minor::text as refunded_minor
    from conversions c
    left join organizations p on p.id = c.${partner}
    left join click_events e on e.id = c.click_id and e.occurred_at = ${clickTimeOf(sql`c.click_id`)}
    where c.${own} = ${organizationId} and ${pageWindow(sql`c.created_at`, sql`c.id`, range, after)}
    order by c.created_at, c.id
    limit ${PAGE_ROWS}`;
}

function clickPage(
  organizationId: string,
  direction: Direction,
  range: ExportRange,
  after: ExportRow | null,
) {
  const { own, partner } = sides(direction);
  return sql`
    select e.id, ${ISO_AT(sql`e.occurred_at`)} as at, p.id as partner_id, p.name as partner_name,
      e.collateral_id, e.verified, e.reason
    from click_events e
    left join organizations p on p.id = e.${partner}
    where e.${own} = ${organizationId} and ${pageWindow(sql`e.occurred_at`, sql`e.id`, range, after)}
    order by e.occurred_at, e.id
    limit ${PAGE_ROWS}`;
}

type ConversionRecord = {
  id: string;
  at: string;
  type: string;
  partner_id: string | null;
  partner_name: string | null;
  click_id: string;
  customer_id: string | null;
  value_minor: string | null;
  currency: string | null;
  event_id: string | null;
  collateral_id: string | null;
  /** Taken back by refunds and disputes, less what won disputes gave back; "0" when nothing. */
  refunded_minor: string;
};
type ClickRecord = {
  id: string;
  at: string;
  partner_id: string | null;
  partner_name: string | null;
  collateral_id: string;
  verified: boolean;
  /** Why it counted or not (CLICK_REASONS). */
  reason: string;
};

/** CONTRACT §9's columns, in order (`@shared/exports`). */
function conversionCells(row: ConversionRecord, direction: Direction): (string | null)[] {
  const value =
    row.value_minor !== null && row.currency !== null
      ? formatMinorUnits(Number(row.value_minor), row.currency)
      : null;
  const refunded =
    row.currency !== null && Number(row.refunded_minor) !== 0
      ? formatMinorUnits(Number(row.refunded_minor), row.currency)
      : null;
  return [
    row.id,
    row.at,
    direction,
    row.type,
    row.partner_id,
    row.partner_name,
    row.click_id,
    row.customer_id,
    value,
    row.currency,
    row.event_id,
    row.collateral_id,
    refunded,
  ];
}

function clickCells(row: ClickRecord, direction: Direction): (string | null)[] {
  return [
    row.id,
    row.at,
    direction,
    row.partner_id,
    row.partner_name,
    row.collateral_id,
    String(row.verified),
    row.reason,
  ];
}

/** One direction's rows, oldest first, a page at a time. */
async function* directionRows(
  db: DbOrTx,
  kind: ExportKind,
  organizationId: string,
  direction: Direction,
  range: ExportRange,
): AsyncGenerator<ExportRow> {
  let after: ExportRow | null = null;
  for (;;) {
    let page: ExportRow[];
    if (kind === "conversions") {
      const records = rowsOf<ConversionRecord>(
        await db.execute(conversionPage(organizationId, direction, range, after)),
      );
      page = records.map((row) => ({ at: row.at, id: row.id, cells: conversionCells(row, direction) }));
    } else {
      const records = rowsOf<ClickRecord>(
        await db.execute(clickPage(organizationId, direction, range, after)),
      );
      page = records.map((row) => ({ at: row.at, id: row.id, cells: clickCells(row, direction) }));
    }
    yield* page;
    const last = page.at(-1);
    if (!last || page.length < PAGE_ROWS) return;
    after = last;
  }
}

const before = (a: ExportRow, b: ExportRow) => a.at < b.at || (a.at === b.at && a.id < b.id);

/**
 * Every event of the organization in the range, both directions merged oldest first. Rows are read
 * as the CSV is written: memory holds a page per direction, whatever the export's size.
 */
export async function* exportRows(
  db: DbOrTx,
  kind: ExportKind,
  organizationId: string,
  range: ExportRange,
): AsyncGenerator<ExportRow> {
  const sent = directionRows(db, kind, organizationId, "sent", range);
  const received = directionRows(db, kind, organizationId, "received", range);
  let [a, b] = [await sent.next(), await received.next()];
  while (!a.done || !b.done) {
    if (b.done || (!a.done && before(a.value, b.value))) {
      yield a.value as ExportRow;
      a = await sent.next();
    } else {
      yield b.value;
      b = await received.next();
    }
  }
}
