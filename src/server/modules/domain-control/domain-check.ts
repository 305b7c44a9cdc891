import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../db/client";
import { domainClaims, organizations } from "../../db/schema";
import { RateLimitedError } from "../../errors";
import type { DomainProofOutcome, DomainProver } from "./domain-prover";
import { verifiedEmailOf } from "./verified-email";

/** Each check fetches a site of the user's choosing: one at most every 3 s per claim or organization. */
const CHECK_INTERVAL = sql.raw("interval '3 seconds'");

/** What is to be proven: a user's onboarding claim, or an organization's domain (Settings). */
export type CheckSubject = { claimOf: string } | { organizationId: string };

export type DomainCheck = {
  /** The domain and token the proofs were looked for with, as the database held them. */
  challenge: { domain: string; token: string };
  outcome: DomainProofOutcome;
};

const dueSince = (checkedAt: AnyPgColumn) =>
  or(isNull(checkedAt), lt(checkedAt, sql`now() - ${CHECK_INTERVAL}`));

/** Seconds until a check is due again, by the database's clock (shared by every instance). */
const waitSeconds = (checkedAt: AnyPgColumn) =>
  sql<number>`ceil(extract(epoch from (${checkedAt} + ${CHECK_INTERVAL} - now())))::int`;

/**
 * Takes the right to check now: one conditional UPDATE stamps the check's time only when the last
 * one is old enough, and returns the challenge. Of any number of concurrent requests, on any
 * instances, one gets it; the others are told when to come back (429). Null when there is nothing
 * to check (no claim; an organization with nothing to prove).
 */
async function takeCheckSlot(db: DbOrTx, subject: CheckSubject): Promise<DomainCheck["challenge"] | null> {
  if ("claimOf" in subject) {
    const [slot] = await db
      .update(domainClaims)
      .set({ checkedAt: sql`now()` })
      .where(and(eq(domainClaims.userId, subject.claimOf), dueSince(domainClaims.checkedAt)))
      .returning({ domain: domainClaims.domain, token: domainClaims.token });
    if (slot) return slot;
    const [held] = await db
      .select({ wait: waitSeconds(domainClaims.checkedAt) })
      .from(domainClaims)
      .where(eq(domainClaims.userId, subject.claimOf));
    if (!held) return null;
    throw new RateLimitedError(Math.max(1, held.wait));
  }
  const toProve = or(isNotNull(organizations.pendingDomain), isNull(organizations.domainVerifiedAt));
  const [slot] = await db
    .update(organizations)
    .set({ domainCheckedAt: sql`now()` })
    .where(
      and(eq(organizations.id, subject.organizationId), toProve, dueSince(organizations.domainCheckedAt)),
    )
    .returning({
      domain: sql<string>`coalesce(${organizations.pendingDomain}, ${organizations.domain})`,
      token: organizations.verificationToken,
    });
  if (slot) return slot;
  const [held] = await db
    .select({ wait: waitSeconds(organizations.domainCheckedAt) })
    .from(organizations)
    .where(and(eq(organizations.id, subject.organizationId), toProve));
  if (!held) return null;
  throw new RateLimitedError(Math.max(1, held.wait));
}

/**
 * "Check now", for onboarding's verification screen and for Settings alike: takes the check's
 * slot, then looks for any of the three proofs (the acting user's verified address, the TXT
 * record, the meta tag) with the subject's own token. Applying a proof is the caller's, in a
 * conditional update of its own: a check says "verified" only when that update changed a row.
 */
export async function checkDomainNow(
  deps: { db: DbOrTx; prover: DomainProver },
  subject: CheckSubject,
  userId: string,
): Promise<DomainCheck | null> {
  const challenge = await takeCheckSlot(deps.db, subject);
  if (!challenge) return null;
  const outcome = await deps.prover.prove({
    ...challenge,
    verifiedEmail: await verifiedEmailOf(deps.db, userId),
  });
  return { challenge, outcome };
}
