import type { Organization, UpdateOrganizationInput } from "@shared/organizations";
import { logoPath } from "@shared/organizations";
import { isValidDomain, normalizeWebsite } from "@shared/website";
import { and, eq, isNotNull } from "drizzle-orm";
import { CHANNELS, type ChangePublisher } from "../../db/change-notifications";
import type { DbOrTx } from "../../db/client";
import { organizations } from "../../db/schema";
import { isUniqueViolation } from "../../db/unique-violation";
import { badRequest, conflict, notFound } from "../../errors";
import { generateToken } from "../../lib/tokens";
import { categoryName } from "../catalog/catalog-lookup";
import { recordDomainProof } from "../domain-control/domain-proof-log";
import { emailProvesDomain } from "../domain-control/email-proof";
import { verifiedEmailOf } from "../domain-control/verified-email";

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
    // The badge is the proof: one record of it (CONTRACT §4).
    isPlatformUser: row.domainVerifiedAt !== null,
    logoUrl: row.logoVersion ? logoPath(row.domain, row.logoVersion) : null,
    domainVerified: row.domainVerifiedAt !== null,
  };
}

/** The organization's own view: with the website change waiting for proof, if any. */
export function toOwnOrganization(row: OrganizationRow): Organization {
  return { ...toOrganization(row), pendingDomain: row.pendingDomain, pendingName: row.pendingName };
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
 * Settings → organization. A website on another domain moves the organization only when the
 * acting admin's verified address proves that domain. Otherwise the change waits as pending, with
 * the name given with it, and the organization keeps its proven domain, name, badge and ads until
 * an admin proves the new one (CONTRACT §4): a proven organization cannot be parked on a domain it
 * does not control, to be handed over with its team and keys to whoever proves it later. The other
 * fields apply at once. Saving the current website again drops a pending change.
 */
export async function updateOrganization(
  db: DbOrTx,
  changes: ChangePublisher,
  actor: { organizationId: string; userId: string; ipAddress: string | null },
  input: UpdateOrganizationInput,
): Promise<OrganizationRow> {
  const { organizationId } = actor;
  const domain = domainOf(input.website, "Must be a valid domain");
  const other = await findOrganizationByDomain(db, domain);
  if (other && other.id !== organizationId) {
    throw conflict("Another organization already uses this website");
  }
  const current = await getOrganization(db, organizationId);
  const details = {
    description: input.description ?? null,
    industry: input.industry || null,
    size: input.size ?? null,
    updatedAt: new Date(),
  };
  let move: Partial<OrganizationRow>;
  if (domain === current.domain) {
    move = { name: input.name, ...(current.pendingDomain ? dropPendingDomain() : {}) };
  } else {
    const email = await verifiedEmailOf(db, actor.userId);
    move =
      email && emailProvesDomain(email, domain)
        ? {
            name: input.name,
            domain,
            website: websiteFor(domain),
            domainVerifiedAt: new Date(),
            domainVerificationMethod: "email",
            ...dropPendingDomain(),
          }
        : {
            pendingDomain: domain,
            pendingName: input.name,
            // A new domain to prove gets a new token; the same one asked again keeps its own.
            ...(current.pendingDomain === domain ? {} : { verificationToken: generateToken(18) }),
          };
  }
  // Served ads carry the company's name, description and domain.
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(organizations)
      .set({ ...details, ...move })
      .where(eq(organizations.id, organizationId))
      .returning()
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw conflict("Another organization already uses this website");
        throw error;
      });
    if (!row) throw notFound("Organization not found");
    await changes.publish(tx, CHANNELS.adsChanged);
    // A move to a domain the admin's own address proves is a proof (CONTRACT §3's security log).
    if (move.domainVerifiedAt)
      await recordDomainProof(tx, actor, organizationId, { domain, method: "email" });
    return row;
  });
}

/** Settings → "Keep DOMAIN": the website change waiting for proof is dropped. */
export async function cancelPendingDomain(db: DbOrTx, organizationId: string): Promise<OrganizationRow> {
  const [row] = await db
    .update(organizations)
    .set({ ...dropPendingDomain(), updatedAt: new Date() })
    .where(and(eq(organizations.id, organizationId), isNotNull(organizations.pendingDomain)))
    .returning();
  // Nothing pending: the token of a domain still to prove stays as the admin may have published it.
  return row ?? getOrganization(db, organizationId);
}

/** The token may have been published for the dropped domain: it is not reused. */
const dropPendingDomain = () => ({
  pendingDomain: null,
  pendingName: null,
  verificationToken: generateToken(18),
});
