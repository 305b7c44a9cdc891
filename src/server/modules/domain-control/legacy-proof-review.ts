import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { CHANNELS, type ChangePublisher } from "../../db/change-notifications";
import type { Db } from "../../db/client";
import { domainProofReviews, memberships, organizations, users } from "../../db/schema";
import { generateToken } from "../../lib/tokens";
import { emailProvesDomain } from "./email-proof";

const BATCH = 100;

/**
 * An organization whose domain is proven again from scratch (a legacy e-mail proof that no
 * longer holds): no badge, ads or approvals until an admin proves it, with a new token (the old
 * one may be public).
 */
const unprovenDomainChanges = () => ({
  domainVerifiedAt: null,
  domainVerificationMethod: null,
  verificationToken: generateToken(18),
});

/**
 * Start-up step: judges the organizations that migrations queued in `domain_proof_reviews` by the
 * runtime's e-mail rule, which SQL cannot apply. An organization stays (or becomes) proven by
 * e-mail only while one of its active admins has a verified address that proves its domain now;
 * an e-mail proof that no longer holds is withdrawn, and its admins prove the domain with the tag
 * or the TXT record. Proofs by tag or TXT record are left as they are. Each row is claimed with
 * `SKIP LOCKED`, so instances starting together share the work; returns how many were judged.
 */
export async function reviewLegacyEmailProofs(db: Db, changes: ChangePublisher): Promise<number> {
  let judged = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const queued = await tx
        .select({ organizationId: domainProofReviews.organizationId })
        .from(domainProofReviews)
        .limit(BATCH)
        .for("update", { skipLocked: true });
      if (queued.length === 0) return 0;
      const ids = queued.map((row) => row.organizationId);
      const orgs = await tx
        .select({
          id: organizations.id,
          domain: organizations.domain,
          verifiedAt: organizations.domainVerifiedAt,
          method: organizations.domainVerificationMethod,
        })
        .from(organizations)
        .where(inArray(organizations.id, ids));
      const admins = await tx
        .select({ organizationId: memberships.organizationId, email: users.email })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(
          and(
            inArray(memberships.organizationId, ids),
            eq(memberships.role, "admin"),
            eq(memberships.status, "active"),
            isNotNull(users.emailVerifiedAt),
          ),
        );
      let changed = false;
      for (const org of orgs) {
        if (org.method === "meta_tag" || org.method === "dns_txt") continue;
        const proven = admins.some(
          (admin) => admin.organizationId === org.id && emailProvesDomain(admin.email, org.domain),
        );
        if (proven && !org.verifiedAt) {
          await tx
            .update(organizations)
            .set({ domainVerifiedAt: new Date(), domainVerificationMethod: "email" })
            .where(eq(organizations.id, org.id));
          changed = true;
        } else if (!proven && org.verifiedAt) {
          await tx.update(organizations).set(unprovenDomainChanges()).where(eq(organizations.id, org.id));
          changed = true;
        }
      }
      await tx.delete(domainProofReviews).where(inArray(domainProofReviews.organizationId, ids));
      if (changed) await changes.publish(tx, CHANNELS.adsChanged);
      return queued.length;
    });
    if (done === 0) return judged;
    judged += done;
  }
}
