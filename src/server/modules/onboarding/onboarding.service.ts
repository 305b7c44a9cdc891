import type { User } from "@shared/auth";
import type { OnboardingInput } from "@shared/onboarding";
import type { SuggestionsResponse } from "@shared/suggestions";
import { normalizeWebsite } from "@shared/website";
import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { memberships, organizations, users } from "../../db/schema";
import { conflict } from "../../errors";
import { renderMail } from "../../mail/mail-layout";
import { enqueueMail } from "../../mail/outbox";
import { loadPendingOrganization, loadUser } from "../auth/current-user";
import { findOrCreateOrganization, websiteFor } from "../organizations/organizations.service";
import { addRelationship } from "../relationships/relationships.service";
import { productByName } from "../suggestions/catalog-lookup";
import { computeSuggestions, forgetPlatformOrganizations } from "../suggestions/suggestions.service";

export type OnboardingResult = { status: 201 | 202; user: User; message: string };
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

async function notifyAdmins(
  db: DbOrTx,
  organizationId: string,
  orgName: string,
  applicant: string,
  publicUrl: string,
) {
  const admins = await db
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        eq(memberships.role, "admin"),
        eq(memberships.status, "active"),
      ),
    );
  for (const admin of admins) {
    await enqueueMail(
      db,
      renderMail(admin.email, {
        subject: `${applicant} asks to join ${orgName} on Buddy`,
        heading: "A colleague asks to join your team",
        paragraphs: [
          `${applicant} set up Buddy with ${orgName}'s website. Approve them in Settings → Team if they work with you.`,
        ],
        action: { label: "Open team settings", url: `${publicUrl}/dashboard/settings?tab=team` },
      }),
    );
  }
}

/**
 * SPEC §4 onboarding. A new domain, or one known only from the catalog or from someone's list,
 * becomes the user's organization (they take it over, with every relationship others hold to
 * it). A domain already on the platform cannot be taken over: the user becomes a pending member.
 */
export async function completeOnboarding(
  deps: { db: Db; publicUrl: string; onMailQueued: () => void },
  auth: { userId: string; email: string },
  input: OnboardingInput,
): Promise<OnboardingResult> {
  const domain = normalizeWebsite(input.website);
  const providers = {
    transactional: input.transactionalEmailProvider,
    marketing: input.marketingEmailProvider,
  };
  const suggestions = await computeSuggestions(deps.db, {
    domain,
    name: input.companyName,
    description: input.description,
    providers,
  });

  const outcome = await deps.db.transaction(async (tx) => {
    const [active] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.userId, auth.userId), eq(memberships.status, "active")))
      .limit(1);
    if (active) throw conflict("You have already set up your company");

    const existing = await findOrCreateOrganization(tx, { domain, name: input.companyName });
    const [locked] = await tx
      .select()
      .from(organizations)
      .where(eq(organizations.id, existing.id))
      .for("update");
    if (locked?.isPlatformUser) {
      await tx
        .insert(memberships)
        .values({ organizationId: locked.id, userId: auth.userId, role: "member", status: "pending" })
        .onConflictDoNothing();
      await notifyAdmins(tx, locked.id, locked.name, auth.email, deps.publicUrl);
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
        isPlatformUser: true,
        suggestionsGeneratedAt: null,
        updatedAt: new Date(),
      })
      .where(eq(organizations.id, existing.id));
    // Any earlier request to join another organization is void once the user has their own.
    await tx
      .delete(memberships)
      .where(and(eq(memberships.userId, auth.userId), eq(memberships.status, "pending")));
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
      await addRelationship(tx, existing.id, {
        name: pick.name,
        url: pick.domain,
        type,
        reason: pick.reason,
        confidence: pick.confidence,
      });
    }
    return { pending: false as const, organizationName: input.companyName };
  });

  // A new platform user: suggestions elsewhere should see it now, not after the cache expires.
  forgetPlatformOrganizations();
  const user = await loadUser(deps.db, auth.userId);
  if (!user) throw conflict("Your account no longer exists");
  if (outcome.pending) {
    deps.onMailQueued();
    return {
      status: 202,
      user: { ...user, pendingOrganization: await loadPendingOrganization(deps.db, auth.userId) },
      message: `${outcome.organizationName} is already on Buddy. An admin of ${outcome.organizationName} needs to approve your request to join.`,
    };
  }
  return { status: 201, user, message: "Onboarding completed successfully" };
}
