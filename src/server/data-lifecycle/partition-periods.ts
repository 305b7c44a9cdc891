/**
 * The periods that event tables are partitioned by, in UTC, and the partitions' names: `<table>_p`
 * then the period's first day as YYYY_MM (a month) or YYYY_MM_DD (a day). Migration 0024 spells
 * them the same way; a partition named otherwise (one an operator attached) is never dropped here.
 */
export type Period = "day" | "month";

export function periodStart(at: Date, period: Period): Date {
  return period === "day"
    ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()))
    : new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export function nextPeriod(start: Date, period: Period, count = 1): Date {
  return period === "day"
    ? new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + count))
    : new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + count, 1));
}

const pad = (value: number) => String(value).padStart(2, "0");

export function partitionName(table: string, start: Date, period: Period): string {
  const month = `${start.getUTCFullYear()}_${pad(start.getUTCMonth() + 1)}`;
  return `${table}_p${period === "day" ? `${month}_${pad(start.getUTCDate())}` : month}`;
}

/** The period a partition of `table` holds, read back from its name; null for another name. */
export function partitionPeriod(
  table: string,
  name: string,
  period: Period,
): { from: Date; to: Date } | null {
  if (!name.startsWith(`${table}_p`)) return null;
  const match = /^(\d{4})_(\d{2})(?:_(\d{2}))?$/.exec(name.slice(table.length + 2));
  if (!match || (period === "day") !== (match[3] !== undefined)) return null;
  const from = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3] ?? 1)));
  if (partitionName(table, from, period) !== name) return null;
  return { from, to: nextPeriod(from, period) };
}
