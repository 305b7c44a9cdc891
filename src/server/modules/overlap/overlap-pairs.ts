import { DEFAULT_OVERLAP_LEVEL, lowerLevel, OVERLAP_MESSAGES, type OverlapLevel } from "@shared/overlap";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { memberships, organizations, overlapPartnerSettings } from "../../db/schema";
import { conflict, notFound } from "../../errors";
import { hasActiveRelationship, isBlockedPair } from "../relationships/block-list";

const discoveryColumns = {
  discovery: organizations.overlapDiscovery,
  proven: sql<boolean>`${organizations.domainVerifiedAt} is not null`,
};

/** Whether an organization opted into discovery, and whether its domain is proven. */
export async function discoveryOf(db: DbOrTx, organizationId: string) {
  const [row] = await db
    .select(discoveryColumns)
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row;
}

export type OverlapPartnerOrg = { id: string; name: string; domain: string };

/**
 * CONTRACT §11: who may compare lists. The partner must be an organization on Buddy (someone there
 * can answer) and not blocked either way; a blocked pair is "not found", exactly as an unknown id,
 * so a run never reveals who blocks whom. Then the two must be Buddies (either side having added
 * the other), or both proven and both opted into discovery.
 */
export async function overlapPartner(
  db: DbOrTx,
  organizationId: string,
  partnerId: string,
): Promise<OverlapPartnerOrg> {
  const [partner] = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      domain: organizations.domain,
      ...discoveryColumns,
    })
    .from(organizations)
    .where(eq(organizations.id, partnerId))
    .limit(1);
  if (!partner || partner.id === organizationId || !(await isOnBuddy(db, partnerId))) {
    throw notFound("Organization not found");
  }
  if (await isBlockedPair(db, organizationId, partnerId)) throw notFound("Organization not found");
  if (!(await hasActiveRelationship(db, "complement", organizationId, partnerId))) {
    const own = await discoveryOf(db, organizationId);
    if (!(own?.discovery && own.proven && partner.discovery && partner.proven)) {
      throw conflict(OVERLAP_MESSAGES.notEligible);
    }
  }
  return { id: partner.id, name: partner.name, domain: partner.domain };
}

/** Someone there can sign in and answer: a catalog entry has nobody. */
async function isOnBuddy(db: DbOrTx, organizationId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.status, "active")))
    .limit(1);
  return Boolean(row);
}

export type PairLevels = {
  /** Each side's own level for the other. */
  own: OverlapLevel;
  partner: OverlapLevel;
  /** The one runs use: the lower. */
  effective: OverlapLevel;
  consented: boolean;
  partnerConsented: boolean;
};

/** Both sides' levels for each other (Counts where a side set none). */
export async function pairLevels(db: DbOrTx, organizationId: string, partnerId: string): Promise<PairLevels> {
  const rows = await db
    .select()
    .from(overlapPartnerSettings)
    .where(
      or(
        and(
          eq(overlapPartnerSettings.organizationId, organizationId),
          eq(overlapPartnerSettings.partnerId, partnerId),
        ),
        and(
          eq(overlapPartnerSettings.organizationId, partnerId),
          eq(overlapPartnerSettings.partnerId, organizationId),
        ),
      ),
    );
  const ownRow = rows.find((row) => row.organizationId === organizationId);
  const partnerRow = rows.find((row) => row.organizationId === partnerId);
  const own = ownRow?.level ?? DEFAULT_OVERLAP_LEVEL;
  const partner = partnerRow?.level ?? DEFAULT_OVERLAP_LEVEL;
  return {
    own,
    partner,
    effective: lowerLevel(own, partner),
    consented: Boolean(ownRow?.consentedAt),
    partnerConsented: Boolean(partnerRow?.consentedAt),
  };
}

/** Names of organizations by id, for runs listed together. */
export async function organizationNames(db: DbOrTx, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(inArray(organizations.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, row.name]));
}
