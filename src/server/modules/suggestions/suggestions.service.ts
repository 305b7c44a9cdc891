import type { Relationship } from "@shared/relationships";
import type { SuggestionsResponse } from "@shared/suggestions";
import { and, eq, inArray, ne, or } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { dismissedSuggestions, organizations, relationships } from "../../db/schema";
import { findOrganizationByDomain, getOrganization } from "../organizations/organizations.service";
import { blockedOrganizationIds } from "../relationships/block-list";
import { listRelationships } from "../relationships/relationships.service";
import { suggestEcosystem } from "./suggestion-engine";

/** How many suggestions the dashboard keeps per refresh. */
const STORED_COMPETITORS = 12;
const STORED_TOOLS = 36;
const PLATFORM_CONTEXT_LIMIT = 5000;

export type SuggestionInput = {
  domain: string;
  name?: string;
  description?: string;
  providers?: { transactional?: string; marketing?: string };
};

/**
 * Domains never to suggest to an organization: itself, every organization it already has a
 * relationship with (but suggestions, when refreshing), those it dismissed, and both sides of
 * its block list (CONTRACT §4).
 */
async function excludedDomainsFor(db: DbOrTx, organizationId: string, keepSuggested: boolean) {
  const [related, dismissed, blocked] = await Promise.all([
    db
      .select({ domain: organizations.domain })
      .from(relationships)
      .innerJoin(organizations, eq(organizations.id, relationships.targetOrgId))
      .where(
        and(
          eq(relationships.sourceOrgId, organizationId),
          keepSuggested ? undefined : ne(relationships.status, "suggested"),
        ),
      ),
    db
      .select({ domain: organizations.domain })
      .from(dismissedSuggestions)
      .innerJoin(organizations, eq(organizations.id, dismissedSuggestions.targetOrgId))
      .where(eq(dismissedSuggestions.organizationId, organizationId)),
    blockedOrganizationIds(db, organizationId),
  ]);
  const blockedDomains = blocked.length
    ? await db
        .select({ domain: organizations.domain })
        .from(organizations)
        .where(inArray(organizations.id, blocked))
    : [];
  return new Set([...related, ...dismissed, ...blockedDomains].map((row) => row.domain));
}

async function platformOrganizations(db: DbOrTx, excludeId: string | null) {
  const rows = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      domain: organizations.domain,
      description: organizations.description,
      category: organizations.category,
    })
    .from(organizations)
    .where(
      excludeId
        ? and(eq(organizations.isPlatformUser, true), ne(organizations.id, excludeId))
        : eq(organizations.isPlatformUser, true),
    )
    .limit(PLATFORM_CONTEXT_LIMIT);
  return rows;
}

/**
 * Runs the engine for a company. For a company already known (by domain), its relationships,
 * dismissals and block list are excluded.
 */
export async function computeSuggestions(
  db: DbOrTx,
  input: SuggestionInput,
  options: { keepSuggested?: boolean } = {},
): Promise<Omit<SuggestionsResponse, "suggestions">> {
  const known = await findOrganizationByDomain(db, input.domain);
  const excluded = known
    ? await excludedDomainsFor(db, known.id, options.keepSuggested ?? false)
    : new Set<string>();
  excluded.add(input.domain);
  const result = suggestEcosystem(input, {
    platformOrganizations: await platformOrganizations(db, known?.id ?? null),
    excludedDomains: excluded,
  });
  return {
    category: result.category ? { slug: result.category.slug, name: result.category.name } : null,
    competitors: result.competitors,
    categories: result.categories,
  };
}

/**
 * SPEC §9: suggestions are cached until the user refreshes. They are stored as relationships
 * with status "suggested", so adding one follows SPEC §4's rules and ads can include them.
 */
export async function dashboardSuggestions(
  db: DbOrTx,
  organizationId: string,
  options: { force: boolean },
): Promise<SuggestionsResponse> {
  const organization = await getOrganization(db, organizationId);
  const input: SuggestionInput = {
    domain: organization.domain,
    name: organization.name,
    description: organization.description ?? undefined,
    providers: {
      transactional: organization.transactionalEmailProvider ?? undefined,
      marketing: organization.marketingEmailProvider ?? undefined,
    },
  };
  if (options.force || !organization.suggestionsGeneratedAt) {
    const fresh = await computeSuggestions(db, input, { keepSuggested: false });
    await storeSuggestions(db, organizationId, fresh);
  }
  const result = await computeSuggestions(db, input, { keepSuggested: true });
  const blocked = new Set(await blockedOrganizationIds(db, organizationId));
  const suggestions = (await listRelationships(db, organizationId, { status: "suggested" })).filter(
    (s: Relationship) => !blocked.has(s.targetOrg.id),
  );
  return { ...result, suggestions };
}

async function storeSuggestions(
  db: DbOrTx,
  organizationId: string,
  result: Omit<SuggestionsResponse, "suggestions">,
) {
  const picks = [
    ...result.competitors.slice(0, STORED_COMPETITORS).map((tool) => ({ tool, type: "competitor" as const })),
    ...result.categories
      .flatMap((category) => category.tools)
      .sort((a, b) => b.confidence - a.confidence)
      .slice(0, STORED_TOOLS)
      .map((tool) => ({ tool, type: "complement" as const })),
  ];
  await db.transaction(async (tx) => {
    await tx
      .delete(relationships)
      .where(and(eq(relationships.sourceOrgId, organizationId), eq(relationships.status, "suggested")));
    const domains = picks.map((p) => p.tool.domain);
    const targets = domains.length
      ? await tx
          .select({ id: organizations.id, domain: organizations.domain })
          .from(organizations)
          .where(or(inArray(organizations.domain, domains)))
      : [];
    const idByDomain = new Map(targets.map((t) => [t.domain, t.id]));
    const rows = picks.flatMap(({ tool, type }) => {
      const targetOrgId = tool.organizationId ?? idByDomain.get(tool.domain);
      if (!targetOrgId || targetOrgId === organizationId) return [];
      return [
        {
          sourceOrgId: organizationId,
          targetOrgId,
          type,
          status: "suggested" as const,
          reason: tool.reason,
          confidence: tool.confidence,
        },
      ];
    });
    if (rows.length) await tx.insert(relationships).values(rows).onConflictDoNothing();
    await tx
      .update(organizations)
      .set({ suggestionsGeneratedAt: new Date() })
      .where(eq(organizations.id, organizationId));
  });
}
