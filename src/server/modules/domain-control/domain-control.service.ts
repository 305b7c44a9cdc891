import {
  DOMAIN_MESSAGES,
  type DomainProofMethod,
  type OrganizationDomainStatus,
} from "@shared/domain-verification";
import { and, eq, isNull, or, sql } from "drizzle-orm";
import { CHANNELS, type ChangePublisher } from "../../db/change-notifications";
import type { DbOrTx } from "../../db/client";
import { organizations } from "../../db/schema";
import { isUniqueViolation } from "../../db/unique-violation";
import { conflict, notFound } from "../../errors";
import { generateToken } from "../../lib/tokens";
import type { SecurityActor } from "../security-log/security-log.service";
import { checkDomainNow } from "./domain-check";
import { recordDomainProof } from "./domain-proof-log";
import type { DomainProver } from "./domain-prover";

/**
 * CONTRACT §4: the organization's own domain is proven (a takeover of an organization nobody had
 * proven). It is now claimed for good, carries the badge, publishes ads and approves members.
 * Only the domain just proven, and only once: a website changed meanwhile wins. True when a row
 * changed; then the proof is in the security log, by `actor`.
 */
export async function markDomainProven(
  db: DbOrTx,
  changes: ChangePublisher,
  organizationId: string,
  method: DomainProofMethod,
  provenDomain: string,
  actor: SecurityActor,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(organizations)
      .set({
        domainVerifiedAt: new Date(),
        domainVerificationMethod: method,
        pendingDomain: null,
        pendingName: null,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(organizations.id, organizationId),
          eq(organizations.domain, provenDomain),
          isNull(organizations.domainVerifiedAt),
        ),
      )
      .returning({ id: organizations.id });
    if (changed.length === 0) return false;
    // Its ads, and those it wrote for its Buddies, may be served from now on.
    await changes.publish(tx, CHANNELS.adsChanged);
    await recordDomainProof(tx, actor, organizationId, { domain: provenDomain, method });
    return true;
  });
}

async function loadProof(db: DbOrTx, organizationId: string) {
  const [row] = await db
    .select({
      domain: organizations.domain,
      pendingDomain: organizations.pendingDomain,
      token: organizations.verificationToken,
      verifiedAt: organizations.domainVerifiedAt,
      method: organizations.domainVerificationMethod,
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  if (!row) throw notFound("Organization not found");
  return row;
}

/** The domain an admin is asked to prove: a pending website change, else the domain itself. */
const toStatus = (row: Awaited<ReturnType<typeof loadProof>>): OrganizationDomainStatus =>
  row.pendingDomain
    ? { domain: row.pendingDomain, token: row.token, verified: false, method: null }
    : { domain: row.domain, token: row.token, verified: row.verifiedAt !== null, method: row.method };

export async function organizationDomainStatus(db: DbOrTx, organizationId: string) {
  return toStatus(await loadProof(db, organizationId));
}

/**
 * Proof found for the domain an organization was asked to prove, with the token it was asked
 * with: its own domain is proven, or a pending website change moves the organization (domain,
 * website and the name given with it) in one conditional update. Nothing changes when the
 * challenge changed meanwhile (another website, a cancel, a concurrent check that got there
 * first). True when a row changed; then the proof is in the security log, by `actor`.
 */
async function applyOrganizationProof(
  db: DbOrTx,
  changes: ChangePublisher,
  organizationId: string,
  proof: { domain: string; token: string; method: DomainProofMethod },
  actor: SecurityActor,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(organizations)
      .set({
        domain: proof.domain,
        website: `https://${proof.domain}`,
        name: sql`case when ${organizations.pendingDomain} = ${proof.domain} then coalesce(${organizations.pendingName}, ${organizations.name}) else ${organizations.name} end`,
        pendingDomain: null,
        pendingName: null,
        domainVerifiedAt: new Date(),
        domainVerificationMethod: proof.method,
        verificationToken: generateToken(18),
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(organizations.id, organizationId),
          eq(organizations.verificationToken, proof.token),
          or(
            eq(organizations.pendingDomain, proof.domain),
            and(
              isNull(organizations.pendingDomain),
              eq(organizations.domain, proof.domain),
              isNull(organizations.domainVerifiedAt),
            ),
          ),
        ),
      )
      .returning({ id: organizations.id })
      .catch((error: unknown) => {
        // The domain is another organization's: the unique index says so, with no read before.
        if (isUniqueViolation(error)) throw conflict(DOMAIN_MESSAGES.alreadyOnBuddy(proof.domain));
        throw error;
      });
    if (changed.length === 0) return false;
    await changes.publish(tx, CHANNELS.adsChanged);
    await recordDomainProof(tx, actor, organizationId, proof);
    return true;
  });
}

/**
 * An admin's "Check again" in Settings: for a pending website change, or for an organization set
 * up before proof was required. Answers the status, with a message saying what was found.
 */
export async function checkOrganizationDomain(
  deps: { db: DbOrTx; changes: ChangePublisher; prover: DomainProver },
  member: { organizationId: string; userId: string },
  actor: SecurityActor,
): Promise<OrganizationDomainStatus> {
  /** The organization as it is now, with "verified" when nothing is left to prove. */
  const statusNow = async () => {
    const status = await organizationDomainStatus(deps.db, member.organizationId);
    return status.verified ? { ...status, message: DOMAIN_MESSAGES.verified(status.domain) } : status;
  };
  const current = await statusNow();
  if (current.verified) return current;
  // Null: a concurrent check applied the proof meanwhile, and nothing is left to prove.
  const check = await checkDomainNow(deps, { organizationId: member.organizationId }, member.userId);
  if (!check) return statusNow();
  const { challenge, outcome } = check;
  if (!outcome.method) {
    return { ...current, message: outcome.problem ?? DOMAIN_MESSAGES.notFound(challenge.domain) };
  }
  const applied = await applyOrganizationProof(
    deps.db,
    deps.changes,
    member.organizationId,
    { ...challenge, method: outcome.method },
    actor,
  );
  // "Verified" only for the change this check made; otherwise say what the organization is now.
  if (!applied) return statusNow();
  return {
    ...(await organizationDomainStatus(deps.db, member.organizationId)),
    message: DOMAIN_MESSAGES.verified(challenge.domain),
  };
}
