import { DAY_MS } from "@shared/days";
import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { partitionPeriod } from "../../data-lifecycle/partition-periods";
import { CHANNELS, type ChangePublisher } from "../../db/change-notifications";
import { type Db, type DbOrTx, rowsOf } from "../../db/client";
import { deleteInChunks } from "../../db/delete-in-chunks";
import { deletedOrganizations, organizations } from "../../db/schema";
import { revokeAllApiKeys } from "../api-keys/api-keys.service";
import { recordSecurityEvent } from "../security-log/security-log.service";
import { eraseInvitationMail, erasePeople, type Person } from "./erase-people";

/**
 * Issue 38: deletes an organization, in the caller's transaction, with its team locked:
 * - a tombstone of its id, so its links redirect plainly and its partners' roll-ups name it
 *   "Deleted organization" (the roll-ups themselves are the partners' and stay);
 * - its API keys, forgotten by every instance;
 * - the messages waiting for its endpoints, their attempts and its security log, a chunk at a
 *   time (the largest of what its row takes with it);
 * - the organization row, and with it (foreign keys) its memberships, invitations, collateral
 *   (its own ads and those it wrote for partners), webhook endpoints, relationships both ways,
 *   domain claims, logo, Stripe connection, billing account and open deletion tokens;
 * - its active members' accounts, when it was their organization (erase-people.ts); people who
 *   only asked to join keep theirs, without the request. Invitations it sent, and their mail not
 *   sent yet, go; the people invited keep all else that names them.
 * Its raw events (clicks, conversions, refunds, customer bindings) are many: eraseOrganizationEvents
 * deletes them a chunk at a time once this commits.
 */
export async function eraseOrganization(
  tx: DbOrTx,
  changes: ChangePublisher,
  organizationId: string,
): Promise<void> {
  const people = rowsOf<Person>(
    await tx.execute(sql`
      select u.id, u.email from memberships m join users u on u.id = m.user_id
      where m.organization_id = ${organizationId} and m.status = 'active'`),
  );
  const invited = rowsOf<{ email: string }>(
    await tx.execute(sql`select email from team_invitations where organization_id = ${organizationId}`),
  ).map((row) => row.email);
  const [organization] = await tx
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  await tx.insert(deletedOrganizations).values({ id: organizationId }).onConflictDoNothing();
  for (const keyHash of await revokeAllApiKeys(tx, organizationId))
    await changes.publish(tx, CHANNELS.apiKeyRevoked, keyHash);
  const endpoints = sql`(select id from webhook_endpoints where organization_id = ${organizationId})`;
  await deleteInChunks(
    tx,
    sql`select id from jobs where kind = 'webhook' and partition_key in ${endpoints}`,
    sql`jobs`,
  );
  await deleteInChunks(
    tx,
    sql`select id, created_at from webhook_attempts where endpoint_id in ${endpoints}`,
    sql`webhook_attempts`,
    sql`(id, created_at)`,
  );
  await deleteInChunks(
    tx,
    sql`select id, created_at from security_log where organization_id = ${organizationId}`,
    sql`security_log`,
    sql`(id, created_at)`,
  );
  await tx.delete(organizations).where(eq(organizations.id, organizationId));
  await erasePeople(tx, people);
  await eraseInvitationMail(tx, invited, organization?.name ?? "");
  // Listed nowhere (its own log went with it), for the operator: which organization, and when.
  await recordSecurityEvent(
    tx,
    { userId: null, ipAddress: null },
    {
      action: "organization_deleted",
      organizationId: null,
      target: `${organization?.name ?? ""} (${organizationId})`,
    },
  );
  // Its ads and relationships are gone: every instance's eligible ads and ad hosts are stale.
  await changes.publish(tx, CHANNELS.adsChanged);
}

/**
 * How long after a deletion its raw events are looked for again: a click id issued before it can
 * still record a lead this long (CLICK_ID_TTL_MS, 30 days), and an instance that had not heard of
 * it yet may store a last click.
 */
const ERASED_AGAIN_DAYS = 31;

/**
 * The raw events of a deleted organization, on either side: deleted a chunk at a time (each a
 * bounded statement), then its tombstone marked. The bodies of its partners' webhook deliveries
 * that named it (they carry its customer ids) are blanked too, a day's partition at a time: every
 * day the first time, then the days from its deletion on (a delivery built before the deletion
 * committed may be attempted after it). Run after the deletion commits, and by the data
 * lifecycle's pass for deletions not finished and those of the last 31 days.
 */
export async function eraseOrganizationEvents(db: Db, organizationId: string): Promise<void> {
  for (const side of [sql`source_org_id`, sql`target_org_id`]) {
    await deleteInChunks(
      db,
      sql`select id, occurred_at from click_events where ${side} = ${organizationId}`,
      sql`click_events`,
      sql`(id, occurred_at)`,
    );
    // Refunds go with their conversions (foreign key).
    await deleteInChunks(
      db,
      sql`select id from conversions where ${side} = ${organizationId}`,
      sql`conversions`,
    );
  }
  for (const column of [sql`organization_id`, sql`source_org_id`]) {
    await deleteInChunks(
      db,
      sql`select organization_id, customer_id from customer_bindings where ${column} = ${organizationId}`,
      sql`customer_bindings`,
      sql`(organization_id, customer_id)`,
    );
  }
  const [tombstone] = await db
    .select({ erasedAt: deletedOrganizations.eventsErasedAt, deletedAt: deletedOrganizations.deletedAt })
    .from(deletedOrganizations)
    .where(eq(deletedOrganizations.id, organizationId));
  const days = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'webhook_attempts'::regclass order by 1`),
  );
  const since = tombstone?.erasedAt ? tombstone.deletedAt.getTime() - DAY_MS : null;
  for (const { name } of days) {
    const day = partitionPeriod("webhook_attempts", name, "day");
    // Later passes: only the days a delivery may have been attempted since the deletion.
    if (since !== null && day !== null && day.to.getTime() <= since) continue;
    await db.execute(sql`
      update ${sql.identifier(name)} set request_body = null
      where request_body is not null and strpos(request_body, ${organizationId}) > 0`);
  }
  await db
    .update(deletedOrganizations)
    .set({ eventsErasedAt: new Date() })
    .where(eq(deletedOrganizations.id, organizationId));
}

/**
 * Each deleted organization whose raw events are to be looked for (not all erased, or lately
 * deleted), each on its own: one that fails is logged and left to the next pass, after the others.
 */
export async function eraseDeletedOrganizationsEvents(db: Db, log: FastifyBaseLogger): Promise<void> {
  let failed = 0;
  for (const organizationId of await organizationsLeftToErase(db)) {
    try {
      await eraseOrganizationEvents(db, organizationId);
    } catch (error) {
      failed++;
      log.warn({ err: error, organizationId }, "raw events of a deleted organization left to the next pass");
    }
  }
  if (failed > 0) throw new Error(`${failed} deleted organizations' raw events left to the next pass`);
}

/** Deleted organizations whose raw events are to be looked for (not all erased, or lately deleted). */
async function organizationsLeftToErase(db: DbOrTx): Promise<string[]> {
  const rows = await db.execute(sql`
    select id from deleted_organizations
    where events_erased_at is null or deleted_at > now() - make_interval(days => ${ERASED_AGAIN_DAYS})`);
  return rowsOf<{ id: string }>(rows).map((row) => row.id);
}
