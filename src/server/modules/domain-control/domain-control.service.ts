import {
  DOMAIN_MESSAGES,
  type DomainProofMethod,
  type OrganizationDomainStatus,
} from "@shared/domain-verification";
import { and, eq, isNull } from "drizzle-orm";
import { CHANNELS, type ChangePublisher } from "../../db/change-notifications";
import type { DbOrTx } from "../../db/client";
import { organizations, users } from "../../db/schema";
import { notFound, RateLimitedError } from "../../errors";
import { generateToken } from "../../lib/tokens";
import type { DomainProver } from "./domain-prover";

/**
 * CONTRACT §4: the organization's domain is proven; it is now claimed for good, carries the
 * badge, publishes ads and approves members.
 */
export async function markDomainProven(
  db: DbOrTx,
  changes: ChangePublisher,
  organizationId: string,
  method: DomainProofMethod,
  provenDomain: string,
) {
  await db.transaction(async (tx) => {
    await tx
      .update(organizations)
      .set({
        domainVerifiedAt: new Date(),
        domainVerificationMethod: method,
        isPlatformUser: true,
        updatedAt: new Date(),
      })
      // Only the domain just proven: a website changed meanwhile wins, and a proof is never redone.
      .where(
        and(
          eq(organizations.id, organizationId),
          eq(organizations.domain, provenDomain),
          isNull(organizations.domainVerifiedAt),
        ),
      );
    // Its ads, and those it wrote for its Buddies, may be served from now on.
    await changes.publish(tx, CHANNELS.adsChanged);
  });
}

/**
 * An organization that moves to another domain has proven nothing about it: it loses the badge,
 * ads and approvals until it proves the new one, with a new token (the old one may be public).
 */
export const unprovenDomainChanges = () => ({
  domainVerifiedAt: null,
  domainVerificationMethod: null,
  isPlatformUser: false,
  verificationToken: generateToken(18),
});

/** The acting user's address, if verified: proof (a) counts only verified addresses. */
export async function verifiedEmailOf(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ email: users.email, verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.verifiedAt ? row.email : null;
}

/** Checks fetch a site of the user's choosing: one at most every 3 s per claim or organization. */
const CHECK_INTERVAL_MS = 3_000;

/** Refuses a check that comes sooner than CHECK_INTERVAL_MS after the last one. */
export function assertCheckInterval(lastCheckedAt: Date | null, now = Date.now()) {
  if (!lastCheckedAt) return;
  const wait = lastCheckedAt.getTime() + CHECK_INTERVAL_MS - now;
  if (wait > 0) throw new RateLimitedError(Math.ceil(wait / 1000));
}

async function loadProof(db: DbOrTx, organizationId: string) {
  const [row] = await db
    .select({
      domain: organizations.domain,
      token: organizations.verificationToken,
      verifiedAt: organizations.domainVerifiedAt,
      method: organizations.domainVerificationMethod,
      checkedAt: organizations.domainCheckedAt,
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  if (!row) throw notFound("Organization not found");
  return row;
}

const toStatus = (row: Awaited<ReturnType<typeof loadProof>>): OrganizationDomainStatus => ({
  domain: row.domain,
  token: row.token,
  verified: row.verifiedAt !== null,
  method: row.method,
});

export async function organizationDomainStatus(db: DbOrTx, organizationId: string) {
  return toStatus(await loadProof(db, organizationId));
}

/**
 * An admin's "Check again" for their own organization (one whose domain changed, or that was set
 * up before proof was required). Answers the status, with a message saying what was found.
 */
export async function checkOrganizationDomain(
  deps: { db: DbOrTx; changes: ChangePublisher; prover: DomainProver },
  member: { organizationId: string; userId: string },
): Promise<OrganizationDomainStatus> {
  const proof = await loadProof(deps.db, member.organizationId);
  const verified = DOMAIN_MESSAGES.verified(proof.domain);
  if (proof.verifiedAt) return { ...toStatus(proof), message: verified };
  assertCheckInterval(proof.checkedAt);
  await deps.db
    .update(organizations)
    .set({ domainCheckedAt: new Date() })
    .where(eq(organizations.id, member.organizationId));
  const { method } = await deps.prover.prove({
    domain: proof.domain,
    token: proof.token,
    verifiedEmail: await verifiedEmailOf(deps.db, member.userId),
  });
  if (!method) return { ...toStatus(proof), message: DOMAIN_MESSAGES.notFound(proof.domain) };
  await markDomainProven(deps.db, deps.changes, member.organizationId, method, proof.domain);
  return { ...(await organizationDomainStatus(deps.db, member.organizationId)), message: verified };
}
