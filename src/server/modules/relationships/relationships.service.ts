import {
  type AddRelationshipInput,
  type Relationship,
  STRENGTH_DAYS,
  type UpdateRelationshipInput,
} from "@shared/relationships";
import { and, desc, eq, ne } from "drizzle-orm";
import { CHANNELS, type ChangePublisher } from "../../db/change-notifications";
import type { DbOrTx } from "../../db/client";
import { dismissedSuggestions, organizations, relationships } from "../../db/schema";
import { badRequest, notFound } from "../../errors";
import { categoryForDomain } from "../catalog/catalog-lookup";
import { queueNotice } from "../notifications/notices";
import {
  domainOf,
  findOrCreateOrganization,
  getOrganization,
  type OrganizationRow,
  toOrganization,
} from "../organizations/organizations.service";
import { NO_TRAFFIC, type PairTraffic, trafficWithPartners } from "../reciprocity/pair-traffic";
import { queueRelationshipCreated } from "../webhooks/webhook-events";
import { isBlockedPair } from "./block-list";
import { strengthBetween } from "./relationship-strength";

type RelationshipRow = typeof relationships.$inferSelect;

function toRelationship(
  row: RelationshipRow,
  source: OrganizationRow,
  target: OrganizationRow,
  traffic: PairTraffic = NO_TRAFFIC,
): Relationship {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    notes: row.notes,
    reason: row.reason,
    confidence: row.confidence,
    strengthScore: strengthBetween(source, target, traffic, row.type),
    createdAt: row.createdAt.toISOString(),
    sourceOrg: { id: row.sourceOrgId },
    targetOrg: toOrganization(target),
  };
}

/** The caller's relationships (it is the source), without the deleted ones. */
export async function listRelationships(
  db: DbOrTx,
  organizationId: string,
  filter: { status?: Relationship["status"]; source?: OrganizationRow } = {},
): Promise<Relationship[]> {
  const source = filter.source ?? (await getOrganization(db, organizationId));
  const rows = await db
    .select({ relationship: relationships, target: organizations })
    .from(relationships)
    .innerJoin(organizations, eq(organizations.id, relationships.targetOrgId))
    .where(
      and(
        eq(relationships.sourceOrgId, organizationId),
        filter.status ? eq(relationships.status, filter.status) : ne(relationships.status, "deleted"),
      ),
    )
    .orderBy(desc(relationships.updatedAt));
  // Strength moves with what each pair did together: one read of the roll-ups for the whole list.
  const traffic =
    rows.length === 0
      ? new Map<string, PairTraffic>()
      : await trafficWithPartners(db, organizationId, STRENGTH_DAYS);
  return rows.map((r) => toRelationship(r.relationship, source, r.target, traffic.get(r.target.id)));
}

/** One of the caller's relationships; another organization's id is "not found" (CONTRACT §2). */
export async function getRelationship(db: DbOrTx, organizationId: string, id: string): Promise<Relationship> {
  const [row] = await db
    .select({ relationship: relationships, target: organizations })
    .from(relationships)
    .innerJoin(organizations, eq(organizations.id, relationships.targetOrgId))
    .where(and(eq(relationships.id, id), eq(relationships.sourceOrgId, organizationId)))
    .limit(1);
  if (!row) throw notFound("Tool not found");
  const traffic = await trafficWithPartners(db, organizationId, STRENGTH_DAYS, { partnerId: row.target.id });
  return toRelationship(
    row.relationship,
    await getOrganization(db, organizationId),
    row.target,
    traffic.get(row.target.id),
  );
}

async function resolveTarget(db: DbOrTx, input: AddRelationshipInput): Promise<OrganizationRow> {
  if (input.organizationId) {
    const [row] = await db
      .select()
      .from(organizations)
      .where(eq(organizations.id, input.organizationId))
      .limit(1);
    if (!row) throw notFound("Organization not found");
    return row;
  }
  const domain = domainOf(input.url ?? "");
  return findOrCreateOrganization(db, {
    domain,
    name: input.name ?? domain,
    category: categoryForDomain(domain),
  });
}

function isActiveBuddy(row: { type: string; status: string }): boolean {
  return row.type === "complement" && row.status === "active";
}

/**
 * CONTRACT §9: the organization just added as a Buddy hears of it (`relationship.created`), in
 * the transaction that adds it. A competitor is never told, nor anyone either side has blocked.
 */
async function tellNewBuddy(
  tx: DbOrTx,
  relationshipId: string,
  sourceOrgId: string,
  targetOrgId: string,
  type: string,
): Promise<void> {
  if (type !== "complement") return;
  if (await isBlockedPair(tx, sourceOrgId, targetOrgId)) return;
  await queueRelationshipCreated(tx, { id: relationshipId, sourceOrgId, targetOrgId });
  // Its people hear of it by mail too, with a way to add the adder back (issue 37, item 8).
  await queueNotice(tx, { type: "buddy_added", organizationId: targetOrgId, partnerId: sourceOrgId });
}

/**
 * SPEC §4 add rules, for the pair (caller → target): an active relationship for the same
 * normalised domain is updated to the chosen type and made active; else a suggested one is;
 * else a new one is created (a removed or archived row is revived as new).
 */
export async function addRelationship(
  db: DbOrTx,
  changes: ChangePublisher,
  organizationId: string,
  input: AddRelationshipInput & { reason?: string | null; confidence?: number | null },
): Promise<{ relationship: Relationship; created: boolean }> {
  const { id, created } = await db.transaction(async (tx) => {
    const target = await resolveTarget(tx, input);
    if (target.id === organizationId) throw badRequest("You cannot add your own organization");
    const [existing] = await tx
      .select()
      .from(relationships)
      .where(and(eq(relationships.sourceOrgId, organizationId), eq(relationships.targetOrgId, target.id)))
      .for("update")
      .limit(1);
    const now = new Date();
    if (existing) {
      const revived = existing.status !== "active" && existing.status !== "suggested";
      await tx
        .update(relationships)
        .set({
          type: input.type,
          status: "active",
          notes: input.notes ?? (revived ? null : existing.notes),
          updatedAt: now,
          ...(revived
            ? { createdAt: now, reason: input.reason ?? null, confidence: input.confidence ?? null }
            : {}),
        })
        .where(eq(relationships.id, existing.id));
      await changes.publish(tx, CHANNELS.adsChanged);
      if (!isActiveBuddy(existing))
        await tellNewBuddy(tx, existing.id, organizationId, target.id, input.type);
      return { id: existing.id, created: revived };
    }
    const [row] = await tx
      .insert(relationships)
      .values({
        sourceOrgId: organizationId,
        targetOrgId: target.id,
        type: input.type,
        status: "active",
        notes: input.notes ?? null,
        reason: input.reason ?? null,
        confidence: input.confidence ?? null,
      })
      .onConflictDoUpdate({
        // Lost a race with an identical request: apply the same rule to its row.
        target: [relationships.sourceOrgId, relationships.targetOrgId],
        set: { type: input.type, status: "active", updatedAt: now },
      })
      .returning({ id: relationships.id });
    if (!row) throw new Error("relationship insert returned nothing");
    await changes.publish(tx, CHANNELS.adsChanged);
    await tellNewBuddy(tx, row.id, organizationId, target.id, input.type);
    return { id: row.id, created: true };
  });
  return { relationship: await getRelationship(db, organizationId, id), created };
}

export async function updateRelationship(
  db: DbOrTx,
  changes: ChangePublisher,
  organizationId: string,
  id: string,
  input: UpdateRelationshipInput,
): Promise<Relationship> {
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ type: relationships.type, status: relationships.status })
      .from(relationships)
      .where(and(eq(relationships.id, id), eq(relationships.sourceOrgId, organizationId)))
      .for("update");
    const [row] = await tx
      .update(relationships)
      .set({
        ...(input.status ? { status: input.status } : {}),
        ...(input.type ? { type: input.type } : {}),
        ...(input.notes !== undefined ? { notes: input.notes } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(relationships.id, id), eq(relationships.sourceOrgId, organizationId)))
      .returning({
        id: relationships.id,
        type: relationships.type,
        status: relationships.status,
        targetOrgId: relationships.targetOrgId,
      });
    if (!row || !before) throw notFound("Tool not found");
    await changes.publish(tx, CHANNELS.adsChanged);
    if (!isActiveBuddy(before) && row.status === "active") {
      await tellNewBuddy(tx, row.id, organizationId, row.targetOrgId, row.type);
    }
  });
  return getRelationship(db, organizationId, id);
}

/**
 * SPEC §4: the Competitors page and suggestions delete for good. A removed suggestion is
 * remembered so that a refresh does not bring it back.
 */
export async function deleteRelationship(
  db: DbOrTx,
  changes: ChangePublisher,
  organizationId: string,
  id: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(relationships)
      .where(and(eq(relationships.id, id), eq(relationships.sourceOrgId, organizationId)))
      .returning();
    if (!row) throw notFound("Tool not found");
    if (row.status === "suggested") {
      await tx
        .insert(dismissedSuggestions)
        .values({ organizationId, targetOrgId: row.targetOrgId })
        .onConflictDoNothing();
    }
    await changes.publish(tx, CHANNELS.adsChanged);
  });
}
