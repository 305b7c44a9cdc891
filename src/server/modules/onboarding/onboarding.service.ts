import type { User } from "@shared/auth";
import { DOMAIN_MESSAGES, type DomainProofMethod } from "@shared/domain-verification";
import type { OnboardingInput } from "@shared/onboarding";
import type { SuggestionsResponse } from "@shared/suggestions";
import { normalizeWebsite } from "@shared/website";
import { and, eq } from "drizzle-orm";
import type { ChangePublisher } from "../../db/change-notifications";
import type { Db, DbOrTx } from "../../db/client";
import { domainClaims, memberships, organizations } from "../../db/schema";
import { conflict, notFound } from "../../errors";
import { loadUser, withOnboardingState } from "../auth/current-user";
import { productByName } from "../catalog/catalog-lookup";
import { checkDomainNow } from "../domain-control/domain-check";
import { markDomainProven } from "../domain-control/domain-control.service";
import type { DomainProver } from "../domain-control/domain-prover";
import { emailProvesDomain } from "../domain-control/email-proof";
import { verifiedEmailOf } from "../domain-control/verified-email";
import { queueCompetitorAlerts } from "../notifications/event-notices";
import { queueNotice } from "../notifications/notices";
import {
  findOrCreateOrganization,
  findOrganizationByDomain,
  type OrganizationRow,
  websiteFor,
} from "../organizations/organizations.service";
import { addRelationship } from "../relationships/relationships.service";
import { computeSuggestions, forgetPlatformOrganizations } from "../suggestions/suggestions.service";
import { endPreviousHolders } from "./organization-handover";

export type OnboardingResult = { status: 200 | 201 | 202; user: User; message: string };
type Pick = { name: string; domain: string; reason: string | null; confidence: number | null };

/**
 * Names from the form are matched against suggestions the server computes again from the same
 * input (the client's `suggestions` echo is not trusted), then against the catalog.
 */
function resolveNames(names: string[], candidates: SuggestionsResponse["competitors"]): Pick[] {
  const byName = new Map(candidates.map((tool) => [tool.name.toLowerCase(), tool]));
  const picks = new Map<string, Pick>();
  for (const name of names) {
    const tool = byName.get(name.toLowerCase());
    const product = tool ? null : productByName(name);
    const pick = tool
      ? { name: tool.name, domain: tool.domain, reason: tool.reason, confidence: tool.confidence }
      : product
        ? { name: product.name, domain: product.domain, reason: null, confidence: null }
        : null;
    if (pick) picks.set(pick.domain, pick);
  }
  return [...picks.values()];
}

/**
 * A colleague waits for approval: the organization's admins who want Email Notifications are
 * mailed (issue 37, item 8), in the transaction that makes the request.
 */
async function notifyAdmins(db: DbOrTx, organizationId: string, applicant: string) {
  await queueNotice(db, { type: "member_pending", organizationId, applicant });
}

export type OnboardingDeps = {
  db: Db;
  changes: ChangePublisher;
  publicUrl: string;
  onMailQueued: () => void;
  prover: DomainProver;
  /** Keys of an organization that changed hands, revoked in its transaction (now committed). */
  onApiKeysRevoked: (keyHashes: readonly string[]) => void;
};
/** The signed-in user, and the client address a proof made now is logged with (CONTRACT §3). */
type Auth = { userId: string; email: string; ipAddress: string | null };

async function assertNoOrganizationYet(db: DbOrTx, userId: string) {
  const [active] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.status, "active")))
    .limit(1);
  if (active) throw conflict("You have already set up your company");
}

/** A pending request to join an organization whose domain is proven; its admins are told. */
async function joinAsPending(tx: DbOrTx, auth: Auth, organization: OrganizationRow) {
  await tx.delete(domainClaims).where(eq(domainClaims.userId, auth.userId));
  await tx
    .insert(memberships)
    .values({ organizationId: organization.id, userId: auth.userId, role: "member", status: "pending" })
    .onConflictDoNothing();
  await notifyAdmins(tx, organization.id, auth.email);
}

async function pendingResult(deps: OnboardingDeps, auth: Auth, organizationName: string) {
  deps.onMailQueued();
  return {
    status: 202 as const,
    user: await currentUser(deps.db, auth.userId),
    message: `${organizationName} is already on Buddy. An admin of ${organizationName} needs to approve your request to join.`,
  };
}

async function currentUser(db: Db, userId: string): Promise<User> {
  const user = await loadUser(db, userId);
  if (!user) throw conflict("Your account no longer exists");
  return withOnboardingState(db, user);
}

const claimedOrganization = async (db: DbOrTx, domain: string) => {
  const organization = await findOrganizationByDomain(db, domain);
  return organization?.domainVerifiedAt ? organization : null;
};

/**
 * SPEC §4 onboarding, under CONTRACT §4's rule that only proven control of a domain makes an
 * owner:
 * - a domain someone already proved: the user becomes a pending member, for its admins to approve;
 * - a domain the user's verified address proves (proof (a)): the user becomes its admin, taking
 *   over an organization known only from the catalog or someone's list;
 * - any other domain: nothing is owned yet. The form is kept as the user's domain claim, with a
 *   token of their own to publish (meta tag or TXT record); `checkDomainClaim` completes it.
 */
export async function completeOnboarding(
  deps: OnboardingDeps,
  auth: Auth,
  input: OnboardingInput,
): Promise<OnboardingResult> {
  const domain = normalizeWebsite(input.website);
  await assertNoOrganizationYet(deps.db, auth.userId);

  const claimed = await claimedOrganization(deps.db, domain);
  if (claimed) {
    await deps.db.transaction((tx) => joinAsPending(tx, auth, claimed));
    return pendingResult(deps, auth, claimed.name);
  }
  const email = await verifiedEmailOf(deps.db, auth.userId);
  if (email && emailProvesDomain(email, domain)) return takeOver(deps, auth, input, "email");

  // The last check's time is kept: sending the form again must not be a way around the spacing
  // of checks, each of which fetches a site of the user's choosing.
  await deps.db
    .insert(domainClaims)
    .values({ userId: auth.userId, domain, onboarding: input })
    .onConflictDoUpdate({
      target: domainClaims.userId,
      set: { domain, onboarding: input, createdAt: new Date() },
    });
  return {
    status: 202,
    user: await currentUser(deps.db, auth.userId),
    message: DOMAIN_MESSAGES.claimOpened(domain),
  };
}

/**
 * The verification screen's "Check again": looks for any of the three proofs with the user's own
 * token. Found: onboarding completes with the form as it was submitted. Meanwhile proven by
 * someone else: the user becomes a pending member instead. Not found: the claim stays (200).
 */
export async function checkDomainClaim(deps: OnboardingDeps, auth: Auth): Promise<OnboardingResult> {
  await assertNoOrganizationYet(deps.db, auth.userId);
  const [claim] = await deps.db
    .select()
    .from(domainClaims)
    .where(eq(domainClaims.userId, auth.userId))
    .limit(1);
  if (!claim) throw notFound("There is no domain waiting for verification");

  const claimed = await claimedOrganization(deps.db, claim.domain);
  if (claimed) {
    await deps.db.transaction((tx) => joinAsPending(tx, auth, claimed));
    return pendingResult(deps, auth, claimed.name);
  }
  const check = await checkDomainNow(deps, { claimOf: auth.userId }, auth.userId);
  if (!check) throw notFound("There is no domain waiting for verification");
  // The form was sent again meanwhile: this proof was for a claim that no longer stands.
  const stale = check.challenge.domain !== claim.domain || check.challenge.token !== claim.token;
  if (stale || !check.outcome.method) {
    return {
      status: 200,
      user: await currentUser(deps.db, auth.userId),
      message: (!stale && check.outcome.problem) || DOMAIN_MESSAGES.notFound(check.challenge.domain),
    };
  }
  return takeOver(deps, auth, claim.onboarding, check.outcome.method);
}

/** "Use a different website": the claim is dropped and the form starts again. */
export async function cancelDomainClaim(db: Db, userId: string): Promise<void> {
  await db.delete(domainClaims).where(eq(domainClaims.userId, userId));
}

/**
 * The user has proven the domain: they become the admin of its organization (taking over one
 * known only from the catalog or someone's list, with every relationship others hold to it).
 * Whoever held it without proof (set up before proof was required) keeps nothing of it: their
 * memberships, sessions, invitations and API keys end (`endPreviousHolders`). A domain proven by
 * someone else in the meantime is never handed over: the user joins as pending.
 */
async function takeOver(
  deps: OnboardingDeps,
  auth: Auth,
  input: OnboardingInput,
  method: DomainProofMethod,
): Promise<OnboardingResult> {
  const domain = normalizeWebsite(input.website);
  const providers = {
    transactional: input.transactionalEmailProvider,
    marketing: input.marketingEmailProvider,
  };
  // The company's own exclusions apply once this caller holds it (set-up answers only its member).
  const suggestions = await computeSuggestions(
    deps.db,
    { domain, name: input.companyName, description: input.description, providers },
    { ownExclusions: true },
  );

  const outcome = await deps.db.transaction(async (tx) => {
    await assertNoOrganizationYet(tx, auth.userId);
    const existing = await findOrCreateOrganization(tx, { domain, name: input.companyName });
    const [locked] = await tx
      .select()
      .from(organizations)
      .where(eq(organizations.id, existing.id))
      .for("update");
    if (!locked) throw conflict("The organization was removed; please try again");
    if (locked.domainVerifiedAt) {
      await joinAsPending(tx, auth, locked);
      return { pending: true as const, organizationName: locked.name };
    }

    await tx
      .update(organizations)
      .set({
        name: input.companyName,
        website: websiteFor(domain),
        description: input.description,
        transactionalEmailProvider: input.transactionalEmailProvider,
        marketingEmailProvider: input.marketingEmailProvider,
        category: suggestions.category?.slug ?? existing.category,
        suggestionsGeneratedAt: null,
        updatedAt: new Date(),
      })
      .where(eq(organizations.id, existing.id));
    await markDomainProven(tx, deps.changes, existing.id, method, domain, auth);
    const { revokedKeyHashes } = await endPreviousHolders(tx, deps.changes, existing.id);
    // Any earlier request to join another organization, or claim, is void once the user has their own.
    await tx
      .delete(memberships)
      .where(and(eq(memberships.userId, auth.userId), eq(memberships.status, "pending")));
    await tx.delete(domainClaims).where(eq(domainClaims.userId, auth.userId));
    await tx
      .insert(memberships)
      .values({ organizationId: existing.id, userId: auth.userId, role: "admin", status: "active" });

    const tools = suggestions.categories.flatMap((category) => category.tools);
    const selections = [
      ...resolveNames(input.selectedCompetitors, suggestions.competitors).map((pick) => ({
        pick,
        type: "competitor" as const,
      })),
      ...resolveNames(input.selectedComplements, tools).map((pick) => ({
        pick,
        type: "complement" as const,
      })),
    ];
    for (const { pick, type } of selections) {
      if (pick.domain === domain) continue;
      await addRelationship(tx, deps.changes, existing.id, {
        name: pick.name,
        url: pick.domain,
        type,
        reason: pick.reason,
        confidence: pick.confidence,
      });
    }
    // Companies of its category already on Buddy hear of a new competitor (issue 37, item 8).
    await queueCompetitorAlerts(tx, existing.id);
    return { pending: false as const, organizationName: input.companyName, revokedKeyHashes };
  });

  // A new platform user: suggestions elsewhere should see it now, not after the cache expires.
  forgetPlatformOrganizations();
  if (outcome.pending) return pendingResult(deps, auth, outcome.organizationName);
  deps.onApiKeysRevoked(outcome.revokedKeyHashes);
  // Competitor alerts may have been queued: sent now rather than at the next poll.
  deps.onMailQueued();
  return {
    status: 201,
    user: await currentUser(deps.db, auth.userId),
    message: "Onboarding completed successfully",
  };
}
