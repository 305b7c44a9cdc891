import { and, eq, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { relationships } from "../../db/schema";

/**
 * CONTRACT §4: an active competitor relationship hides the pair from each other everywhere, in
 * both directions. Returns the ids of every organization the given one must not see or be seen by.
 */
export async function blockedOrganizationIds(db: DbOrTx, organizationId: string): Promise<string[]> {
  const rows = await db
    .select({ source: relationships.sourceOrgId, target: relationships.targetOrgId })
    .from(relationships)
    .where(
      and(
        eq(relationships.type, "competitor"),
        eq(relationships.status, "active"),
        or(eq(relationships.sourceOrgId, organizationId), eq(relationships.targetOrgId, organizationId)),
      ),
    );
  const ids = new Set<string>();
  for (const row of rows) ids.add(row.source === organizationId ? row.target : row.source);
  return [...ids];
}

/** Whether either organization has the other on its block list (CONTRACT §4, both directions). */
export function isBlockedPair(db: DbOrTx, one: string, other: string): Promise<boolean> {
  return hasActiveRelationship(db, "competitor", one, other);
}

/**
 * Whether either organization has an active relationship of this type with the other: a block in
 * either direction (competitor), or Buddies whichever side added the other (complement).
 */
export async function hasActiveRelationship(
  db: DbOrTx,
  type: "competitor" | "complement",
  one: string,
  other: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: relationships.id })
    .from(relationships)
    .where(
      and(
        eq(relationships.type, type),
        eq(relationships.status, "active"),
        or(
          and(eq(relationships.sourceOrgId, one), eq(relationships.targetOrgId, other)),
          and(eq(relationships.sourceOrgId, other), eq(relationships.targetOrgId, one)),
        ),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * The ids `blockedOrganizationIds` answers, as a subquery (one column, `organization_id`) for a
 * statement that needs them inside itself rather than a round trip before it. `organizationId` is
 * a value or a column of the outer statement (then the subquery is correlated with it).
 */
export function blockedOrganizationsSql(organizationId: string | SQLWrapper): SQL {
  return sql`select case when ${relationships.sourceOrgId} = ${organizationId}
      then ${relationships.targetOrgId} else ${relationships.sourceOrgId} end as organization_id
    from ${relationships}
    where ${relationships.type} = 'competitor' and ${relationships.status} = 'active'
      and (${relationships.sourceOrgId} = ${organizationId} or ${relationships.targetOrgId} = ${organizationId})`;
}
