import type { Organization, UpdateOrganizationInput } from "@shared/organizations";
import { logoPath } from "@shared/organizations";
import { isValidDomain, normalizeWebsite } from "@shared/website";
import { eq } from "drizzle-orm";
import { CHANNELS, type ChangePublisher } from "../../db/change-notifications";
import type { DbOrTx } from "../../db/client";
import { organizations } from "../../db/schema";
import { badRequest, conflict, notFound } from "../../errors";
import { categoryName } from "../catalog/catalog-lookup";
import { unprovenDomainChanges, verifiedEmailOf } from "../domain-control/domain-control.service";
import { emailProvesDomain } from "../domain-control/email-proof";

export type OrganizationRow = typeof organizations.$inferSelect;

export const websiteFor = (domain: string) => `https://${domain}`;

export function toOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    website: row.website,
    domain: row.domain,
    industry: row.industry,
    size: row.size,
    description: row.description,
    category: row.category,
    categoryName: categoryName(row.category),
    isPlatformUser: row.isPlatformUser,
    logoUrl: row.logoVersion ? logoPath(row.domain, row.logoVersion) : null,
    domainVerified: row.domainVerifiedAt !== null,
  };
}

/** The normalised domain of a website a user typed, or a 400 with the SPEC text. */
export function domainOf(website: string, message = "Please enter a valid website"): string {
  const domain = normalizeWebsite(website);
  if (!isValidDomain(domain)) throw badRequest(message);
  return domain;
}

export async function getOrganization(db: DbOrTx, id: string): Promise<OrganizationRow> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id)).limit(1);
  if (!row) throw notFound("Organization not found");
  return row;
}

export async function findOrganizationByDomain(db: DbOrTx, domain: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.domain, domain)).limit(1);
  return row ?? null;
}

/**
 * CONTRACT §4: one organization per normalised domain. A company someone adds that is not on
 * the platform yet becomes an organization without users, which its owner can later take over.
 */
export async function findOrCreateOrganization(
  db: DbOrTx,
  input: { domain: string; name: string; description?: string | null; category?: string | null },
): Promise<OrganizationRow> {
  const existing = await findOrganizationByDomain(db, input.domain);
  if (existing) return existing;
  const [created] = await db
    .insert(organizations)
    .values({
      name: input.name.trim().slice(0, 100) || input.domain,
      domain: input.domain,
      website: websiteFor(input.domain),
      description: input.description ?? null,
      category: input.category ?? null,
    })
    .onConflictDoNothing({ target: organizations.domain })
    .returning();
  // A concurrent request created it first: use theirs.
  return created ?? (await findOrganizationByDomain(db, input.domain)) ?? raise();
}

function raise(): never {
  throw new Error("organization vanished during creation");
}

/**
 * Settings → organization. A new website is a new domain to prove (CONTRACT §4): unless the
 * acting admin's verified address proves it, the organization loses the badge, its ads and
 * approvals until the domain is proven.
 */
export async function updateOrganization(
  db: DbOrTx,
  changes: ChangePublisher,
  actor: { organizationId: string; userId: string },
  input: UpdateOrganizationInput,
): Promise<OrganizationRow> {
  const { organizationId } = actor;
  const domain = domainOf(input.website, "Must be a valid domain");
  const other = await findOrganizationByDomain(db, domain);
  if (other && other.id !== organizationId) {
    throw conflict("Another organization already uses this website");
  }
  const current = await getOrganization(db, organizationId);
  let proof = {};
  if (current.domain !== domain) {
    const email = await verifiedEmailOf(db, actor.userId);
    proof =
      email && emailProvesDomain(email, domain)
        ? { domainVerifiedAt: new Date(), domainVerificationMethod: "email" as const, isPlatformUser: true }
        : unprovenDomainChanges();
  }
  // Served ads carry the company's name, description and domain, and need its proof.
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(organizations)
      .set({
        name: input.name,
        domain,
        website: websiteFor(domain),
        description: input.description ?? null,
        industry: input.industry || null,
        size: input.size ?? null,
        ...proof,
        updatedAt: new Date(),
      })
      .where(eq(organizations.id, organizationId))
      .returning();
    if (!row) throw notFound("Organization not found");
    await changes.publish(tx, CHANNELS.adsChanged);
    return row;
  });
}
