import type { OrganizationSearchResult } from "@shared/organizations";
import { and, ilike, notInArray, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { organizations } from "../../db/schema";
import { blockedOrganizationIds } from "./block-list";

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Search for the add-organization control: by name or domain, never the caller itself nor
 * anyone on either side of its block list (CONTRACT §4). Here rather than in organizations, which
 * sits below relationships and so cannot read the block list.
 */
export async function searchOrganizations(
  db: DbOrTx,
  organizationId: string,
  query: string,
): Promise<OrganizationSearchResult[]> {
  const hidden = [organizationId, ...(await blockedOrganizationIds(db, organizationId))];
  const pattern = `%${escapeLike(query.trim().toLowerCase())}%`;
  const prefix = `${escapeLike(query.trim().toLowerCase())}%`;
  const rows = await db
    .select()
    .from(organizations)
    .where(
      and(
        or(ilike(organizations.name, pattern), ilike(organizations.domain, pattern)),
        notInArray(organizations.id, hidden),
      ),
    )
    .orderBy(
      sql`case when lower(${organizations.name}) like ${prefix} or ${organizations.domain} like ${prefix} then 0 else 1 end`,
      sql`${organizations.domainVerifiedAt} is not null desc`,
      organizations.name,
    )
    .limit(10);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    website: row.website,
    domain: row.domain,
    category: row.category,
    isPlatformUser: row.domainVerifiedAt !== null,
  }));
}
