import { DAY_MS } from "@shared/days";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { deleteInChunks } from "../db/delete-in-chunks";
import { CUSTOMER_BINDING_RETENTION_DAYS, ENDED_CREDENTIAL_RETENTION_DAYS } from "./partitioned-tables";

/**
 * Rows of the tables that are not partitioned, deleted a chunk at a time once they expire (they are
 * few beside the events): sessions, one-time tokens and team invitations 30 days after they ended,
 * the weekly digests' once-only keys after 30 days, and customer
 * bindings once their attribution is over. Answers how many of each went.
 */
export async function deleteExpiredRows(db: Db, now: Date): Promise<Record<string, number>> {
  const before = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  const ended = before(ENDED_CREDENTIAL_RETENTION_DAYS);
  return {
    sessions: await deleteInChunks(
      db,
      sql`select id from sessions where least(expires_at, coalesce(revoked_at, expires_at)) < ${ended}::timestamptz`,
      sql`sessions`,
    ),
    one_time_tokens: await deleteInChunks(
      db,
      sql`select id from one_time_tokens where least(expires_at, coalesce(used_at, expires_at)) < ${ended}::timestamptz`,
      sql`one_time_tokens`,
    ),
    // An invitation names the person invited: it goes as a one-time token does once it ended.
    team_invitations: await deleteInChunks(
      db,
      sql`select id from team_invitations where least(expires_at, coalesce(used_at, expires_at)) < ${ended}::timestamptz`,
      sql`team_invitations`,
    ),
    // A week's digest key keeps the digest to once per person; a month on, it only names a user id.
    notifications_sent: await deleteInChunks(
      db,
      sql`select key from notifications_sent where key like 'digest:%' and created_at < ${ended}::timestamptz`,
      sql`notifications_sent`,
      sql`key`,
    ),
    customer_bindings: await deleteInChunks(
      db,
      sql`select organization_id, customer_id from customer_bindings
        where bound_at < ${before(CUSTOMER_BINDING_RETENTION_DAYS)}::timestamptz`,
      sql`customer_bindings`,
      sql`(organization_id, customer_id)`,
    ),
  };
}
