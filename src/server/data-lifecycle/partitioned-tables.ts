import { DAY_MS } from "@shared/days";
import { SECURITY_LOG_RETENTION_DAYS } from "@shared/security-log";
import { CUSTOMER_ATTRIBUTION_DAYS } from "@shared/tracking";
import { type SQL, sql } from "drizzle-orm";
import type { Period } from "./partition-periods";

/** Issue 38: how long each kind of row is kept. */
export type RetentionSettings = {
  /** CLICK_RETENTION_DAYS: raw click events (every figure reads the roll-ups, kept for good). */
  clickRetentionDays: number;
};

export const DEFAULT_CLICK_RETENTION_DAYS = 400;
/** Jobs: a day after they finish. Delivery attempts: 30 days. */
export const JOB_RETENTION_MS = DAY_MS;
export const ATTEMPT_RETENTION_DAYS = 30;
/** Sessions and one-time tokens, after they expire, are revoked or are used. */
export const ENDED_CREDENTIAL_RETENTION_DAYS = 30;
/** A customer's binding to the click that brought them lasts as long as its attribution. */
export const CUSTOMER_BINDING_RETENTION_DAYS = CUSTOMER_ATTRIBUTION_DAYS;

/**
 * A table range-partitioned by time (migration 0024). Its partitions are made from the one that
 * holds `now - retention` to `AHEAD` periods after the current one, and a partition is dropped once
 * its whole period is older than the retention. The periods are chosen in docs/decisions.md, "Data
 * with a lifecycle".
 */
export type PartitionedTable = {
  table: "click_events" | "jobs" | "security_log" | "webhook_attempts";
  /** The timestamp column it is partitioned by. */
  column: "occurred_at" | "created_at";
  period: Period;
  retentionMs: number;
  /**
   * Rows that keep a partition whose period has expired: jobs still pending, or finished less than
   * their retention ago (a webhook retried for a day holds its partition until it ends).
   */
  stillNeeded?: (now: Date) => SQL;
};

/**
 * Partitions made after the current one, so a write never finds none, even at a boundary and with
 * a pass or two missed: a week of days, three months.
 */
export const PARTITIONS_AHEAD: Record<Period, number> = { day: 7, month: 3 };

export function partitionedTables(settings: RetentionSettings): readonly PartitionedTable[] {
  return [
    {
      table: "click_events",
      column: "occurred_at",
      period: "month",
      retentionMs: settings.clickRetentionDays * DAY_MS,
    },
    {
      table: "jobs",
      column: "created_at",
      period: "day",
      retentionMs: JOB_RETENTION_MS,
      stillNeeded: (now) =>
        sql`status = 'pending' or finished_at > ${new Date(now.getTime() - JOB_RETENTION_MS).toISOString()}::timestamptz`,
    },
    {
      table: "webhook_attempts",
      column: "created_at",
      period: "day",
      retentionMs: ATTEMPT_RETENTION_DAYS * DAY_MS,
    },
    {
      table: "security_log",
      column: "created_at",
      period: "month",
      retentionMs: SECURITY_LOG_RETENTION_DAYS * DAY_MS,
    },
  ];
}
