import { overlapSentence } from "@shared/overlap";
import { CONFIDENCE, type SuggestionsResponse } from "@shared/suggestions";
import { and, desc, eq, inArray, isNotNull, notInArray, or, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client";
import { dismissedSuggestions, organizations, relationships } from "../../db/schema";
import { findOrganizationByDomain, getOrganization } from "../organizations/organizations.service";
import { type DiscoveryOverlap, discoveryOverlaps } from "../overlap/overlap.service";
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
 * Domains never to suggest to an organization, in one query: every organization it already has
 * a relationship with (stored suggestions aside; its own block list included), those it
 * dismissed, and those that block it (CONTRACT §4: both sides of a block list).
 */
async function excludedDomainsFor(db: DbOrTx, organizationId: string): Promise<Set<string>> {
  const rows = await db.execute<{ domain: string }>(sql`
    select o.domain from ${organizations} o where o.id in (
      select ${relationships.targetOrgId} from ${relationships}
        where ${relationships.sourceOrgId} = ${organizationId} and ${relationships.status} <> 'suggested'
      union
      select ${dismissedSuggestions.targetOrgId} from ${dismissedSuggestions}
        where ${dismissedSuggestions.organizationId} = ${organizationId}
      union
      select ${relationships.sourceOrgId} from ${relationships}
        where ${relationships.targetOrgId} = ${organizationId}
          and ${relationships.type} = 'competitor' and ${relationships.status} = 'active'
    )`);
  return new Set(rowsOf<{ domain: string }>(rows).map((row) => row.domain));
}

type PlatformOrganization = {
  id: string;
  name: string;
  domain: string;
  description: string | null;
  category: string | null;
};

/**
 * Platform organizations change rarely and every suggestion needs them: kept in memory for a
 * short while (another instance's new sign-ups show up within PLATFORM_CACHE_MS).
 */
const PLATFORM_CACHE_MS = 30_000;
let platformCache: { db: DbOrTx; at: number; rows: PlatformOrganization[] } | null = null;

export function forgetPlatformOrganizations() {
  platformCache = null;
}

async function platformOrganizations(db: DbOrTx, excludeId: string | null): Promise<PlatformOrganization[]> {
  if (!platformCache || platformCache.db !== db || Date.now() - platformCache.at > PLATFORM_CACHE_MS) {
    const rows = await db
      .select({
        id: organizations.id,
        name: organizations.name,
        domain: organizations.domain,
        description: organizations.description,
        category: organizations.category,
      })
      .from(organizations)
      .where(isNotNull(organizations.domainVerifiedAt))
      .orderBy(desc(organizations.createdAt))
      .limit(PLATFORM_CONTEXT_LIMIT);
    platformCache = { db, at: Date.now(), rows };
  }
  return excludeId ? platformCache.rows.filter((row) => row.id !== excludeId) : platformCache.rows;
}

async function runEngine(
  db: DbOrTx,
  input: SuggestionInput,
  knownId: string | null,
  excluded: Set<string>,
): Promise<Omit<SuggestionsResponse, "suggestions">> {
  const result = suggestEcosystem(input, {
    platformOrganizations: await platformOrganizations(db, knownId),
    excludedDomains: new Set([...excluded, input.domain]),
  });
  return {
    category: result.category ? { slug: result.category.slug, name: result.category.name } : null,
    competitors: result.competitors,
    categories: result.categories,
  };
}

/**
 * Runs the engine for a company. `ownExclusions` is for a caller who holds the company: then a
 * company already known (by domain) has its relationships, dismissals and block list excluded.
 * Anyone may type any domain into the public call, so it never applies them: comparing its
 * answers for a company's domain and another would tell its block list, and who blocked it.
 */
export async function computeSuggestions(
  db: DbOrTx,
  input: SuggestionInput,
  options: { ownExclusions: boolean },
): Promise<Omit<SuggestionsResponse, "suggestions">> {
  const known = await findOrganizationByDomain(db, input.domain);
  const excluded =
    known && options.ownExclusions ? await excludedDomainsFor(db, known.id) : new Set<string>();
  return runEngine(db, input, known?.id ?? null, excluded);
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
  const excluded = await excludedDomainsFor(db, organizationId);
  const result = await runEngine(db, input, organizationId, excluded);
  if (options.force || !organization.suggestionsGeneratedAt)
    await storeSuggestions(db, organizationId, result);
  const overlaps = (await discoveryOverlaps(db, organizationId)).filter(
    (overlap) => !excluded.has(overlap.domain),
  );
  await storeOverlapSuggestions(db, organizationId, overlaps);
  // A stored suggestion whose company has since blocked us (or been blocked) is not shown.
  const stored = await listRelationships(db, organizationId, { status: "suggested", source: organization });
  // CONTRACT §11: the largest customer overlap first, then the engine's picks as stored.
  const rank = new Map(overlaps.map((overlap, index) => [overlap.partnerId, index]));
  const ordered = stored
    .filter((s) => !excluded.has(s.targetOrg.domain))
    .map((suggestion, index) => ({ suggestion, index, rank: rank.get(suggestion.targetOrg.id) }))
    .sort(
      (a, b) =>
        (a.rank ?? Number.MAX_SAFE_INTEGER) - (b.rank ?? Number.MAX_SAFE_INTEGER) || a.index - b.index,
    )
    .map(({ suggestion }) => suggestion);
  return { ...result, suggestions: ordered };
}

/**
 * Organizations open to discovery that share 5 or more customers become suggestions of their own,
 * the count as their reason; a company already suggested for another reason takes this one.
 */
async function storeOverlapSuggestions(db: DbOrTx, organizationId: string, overlaps: DiscoveryOverlap[]) {
  // One that no longer qualifies (it left discovery, or the latest run found fewer) goes: its
  // reason is the overlap sentence, which no engine reason reads like.
  await db.delete(relationships).where(
    and(
      eq(relationships.sourceOrgId, organizationId),
      eq(relationships.status, "suggested"),
      sql`${relationships.reason} like ${`% of your customers are % customers`}`,
      overlaps.length
        ? notInArray(
            relationships.targetOrgId,
            overlaps.map((overlap) => overlap.partnerId),
          )
        : undefined,
    ),
  );
  if (overlaps.length === 0) return;
  await db
    .insert(relationships)
    .values(
      overlaps.map((overlap) => ({
        sourceOrgId: organizationId,
        targetOrgId: overlap.partnerId,
        type: "complement" as const,
        status: "suggested" as const,
        reason: overlapSentence(
          { count: overlap.count, population: "customers", partnerPopulation: "customers" },
          overlap.name,
        ),
        confidence: CONFIDENCE.directIntegration,
      })),
    )
    .onConflictDoUpdate({
      target: [relationships.sourceOrgId, relationships.targetOrgId],
      set: { reason: sql`excluded.reason`, confidence: sql`excluded.confidence`, type: sql`excluded.type` },
      setWhere: sql`${relationships.status} = 'suggested'`,
    });
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
