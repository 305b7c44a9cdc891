import { CONFIDENCE } from "@shared/suggestions";
import { normalizeWebsite } from "@shared/website";
import {
  type CatalogCategory,
  type CatalogProduct,
  findCatalogCategory,
  findCatalogProduct,
  listCategoryProducts,
  listIntegrationPartners,
  type ProviderKind,
  resolveProviderDomain,
} from "../catalog/catalog";
import { rankCategoriesByText } from "../catalog/text-relevance";

/** SPEC §3 and §9: competitors and direct-integration tools 0.9, other tools 0.7. */
/** SPEC §9 confidence values, shared with the web. */
export const SUGGESTION_CONFIDENCE = CONFIDENCE;

export type SuggestionLimits = { competitors: number; toolsPerCategory: number; categories: number };

export const DEFAULT_SUGGESTION_LIMITS: Readonly<SuggestionLimits> = {
  competitors: 12,
  toolsPerCategory: 8,
  categories: 8,
};

export type PlatformOrganization = {
  id: string;
  name: string;
  domain: string;
  description: string | null;
  /** A catalog category slug, or null when unknown. */
  category: string | null;
};

export type SuggestEcosystemInput = {
  domain: string;
  name?: string;
  description?: string;
  /** SPEC §3 provider option values ('postmark', 'klaviyo', 'other'…). */
  providers?: { transactional?: string; marketing?: string };
};

export type SuggestEcosystemContext = {
  platformOrganizations: readonly PlatformOrganization[];
  /** The company itself, its existing relationships and both sides of block lists: never suggested. */
  excludedDomains: ReadonlySet<string>;
  limits?: Partial<SuggestionLimits>;
};

export type Suggestion = {
  name: string;
  /** `https://` + domain. */
  url: string;
  domain: string;
  description: string;
  /** Catalog category slug. */
  category: string;
  categoryName: string;
  /** Tools only (SPEC §3 field name): a recorded native integration. Always false for competitors. */
  direct_integration: boolean;
  reason: string;
  confidence: number;
  isPlatformUser: boolean;
  organizationId: string | null;
};

export type EcosystemSuggestions = {
  category: { slug: string; name: string; source: "catalog" | "text" } | null;
  competitors: Suggestion[];
  categories: Array<{ name: string; slug: string; tools: Suggestion[] }>;
};

const ON_PLATFORM = ", already on Buddy";

const PROVIDER_ROLE: Record<ProviderKind, string> = {
  transactional: "your transactional e-mail provider",
  marketing: "your marketing e-mail provider",
};

type Candidate = {
  domain: string;
  name: string;
  description: string;
  category: CatalogCategory;
  organization: PlatformOrganization | null;
  /** Position in the curated catalog order; platform-only organisations come after every product. */
  rank: number;
};

/**
 * Competitors and complementary tools for a company, from the catalog and the organisations already
 * on the platform. Pure and deterministic: same input, same answer, no I/O.
 */
export function suggestEcosystem(
  input: SuggestEcosystemInput,
  context: SuggestEcosystemContext,
): EcosystemSuggestions {
  const domain = normalizeWebsite(input.domain);
  const own = domain ? findCatalogProduct(domain) : undefined;
  const category = own ? findCatalogCategory(own.category) : classifyByText(input, domain);
  if (!category) return { category: null, competitors: [], categories: [] };

  const limits = resolveLimits(context.limits);
  const excluded = new Set<string>([domain]);
  for (const excludedDomain of context.excludedDomains) excluded.add(normalizeWebsite(excludedDomain));
  const platform = indexPlatformOrganizations(context.platformOrganizations, excluded);
  const partners = collectIntegrationPartners(own, input.providers);

  const competitors = collectCandidates(category, platform, excluded)
    .filter((candidate) => !partners.providerDomains.has(candidate.domain))
    .sort(byPlatformThenRank)
    .slice(0, limits.competitors)
    .map((candidate) => toCompetitor(candidate, category));

  const groups = category.complements.flatMap((slug, order) => {
    const complement = findCatalogCategory(slug);
    if (!complement) return [];
    const candidates = collectCandidates(complement, platform, excluded);
    if (candidates.length === 0) return [];
    const directCount = candidates.filter((candidate) => partners.labels.has(candidate.domain)).length;
    const onPlatform = candidates.some((candidate) => candidate.organization !== null);
    const kept = candidates
      .sort(byPlatformThenIntegration(partners.labels))
      .slice(0, limits.toolsPerCategory);
    return [{ complement, order, onPlatform, directCount, kept }];
  });
  // Categories holding a company already on Buddy come first: a Buddy there can share ads back
  // from day one. Then those where the company already has native integrations, the easiest
  // partnerships to explain.
  groups.sort(
    (a, b) =>
      Number(b.onPlatform) - Number(a.onPlatform) || b.directCount - a.directCount || a.order - b.order,
  );

  return {
    category: { slug: category.slug, name: category.name, source: own ? "catalog" : "text" },
    competitors,
    categories: groups.slice(0, limits.categories).map(({ complement, kept }) => ({
      name: complement.name,
      slug: complement.slug,
      tools: kept.map((candidate) => toTool(candidate, category, partners.labels.get(candidate.domain))),
    })),
  };
}

function resolveLimits(limits: Partial<SuggestionLimits> | undefined): SuggestionLimits {
  const pick = (value: number | undefined, fallback: number) =>
    value === undefined || !Number.isFinite(value) ? fallback : Math.max(0, Math.floor(value));
  return {
    competitors: pick(limits?.competitors, DEFAULT_SUGGESTION_LIMITS.competitors),
    toolsPerCategory: pick(limits?.toolsPerCategory, DEFAULT_SUGGESTION_LIMITS.toolsPerCategory),
    categories: pick(limits?.categories, DEFAULT_SUGGESTION_LIMITS.categories),
  };
}

function classifyByText(input: SuggestEcosystemInput, domain: string): CatalogCategory | undefined {
  // 'acme-mail.io' says something too: its labels without the top-level domain.
  const domainWords = domain.split(".").slice(0, -1).join(" ").replaceAll("-", " ");
  const text = [input.name, input.description, domainWords].filter(Boolean).join(" ");
  const [best] = rankCategoriesByText(text, 1);
  return findCatalogCategory(best?.slug);
}

type PlatformIndex = {
  byDomain: Map<string, PlatformOrganization>;
  /** Platform organisations with no catalog entry, by their own category. */
  uncataloguedByCategory: Map<string, PlatformOrganization[]>;
};

function indexPlatformOrganizations(
  organizations: readonly PlatformOrganization[],
  excluded: ReadonlySet<string>,
): PlatformIndex {
  const byDomain = new Map<string, PlatformOrganization>();
  const uncataloguedByCategory = new Map<string, PlatformOrganization[]>();
  for (const organization of organizations) {
    const domain = normalizeWebsite(organization.domain);
    if (!domain || excluded.has(domain) || byDomain.has(domain)) continue;
    byDomain.set(domain, organization);
    // A catalog product keeps its curated category; an organisation's own category places the rest.
    const slug = findCatalogCategory(organization.category)?.slug;
    if (!slug || findCatalogProduct(domain)) continue;
    const list = uncataloguedByCategory.get(slug) ?? [];
    list.push({ ...organization, domain });
    uncataloguedByCategory.set(slug, list);
  }
  for (const list of uncataloguedByCategory.values()) list.sort((a, b) => a.name.localeCompare(b.name));
  return { byDomain, uncataloguedByCategory };
}

type IntegrationPartners = {
  /** Tool domain → the partner named in its reason ('Klaviyo' or 'Postmark, your … provider'). */
  labels: Map<string, string>;
  providerDomains: Set<string>;
};

function collectIntegrationPartners(
  own: CatalogProduct | undefined,
  providers: SuggestEcosystemInput["providers"],
): IntegrationPartners {
  const labels = new Map<string, string>();
  const providerDomains = new Set<string>();
  // The company's own integrations are named first: they are the stronger claim.
  if (own) for (const partner of listIntegrationPartners(own.domain)) labels.set(partner, own.name);
  for (const kind of ["transactional", "marketing"] as const) {
    const providerDomain = resolveProviderDomain(kind, providers?.[kind]);
    const provider = providerDomain ? findCatalogProduct(providerDomain) : undefined;
    if (!providerDomain || !provider) continue;
    providerDomains.add(providerDomain);
    for (const partner of listIntegrationPartners(providerDomain)) {
      if (!labels.has(partner)) labels.set(partner, `${provider.name}, ${PROVIDER_ROLE[kind]}`);
    }
  }
  return { labels, providerDomains };
}

function collectCandidates(
  category: CatalogCategory,
  platform: PlatformIndex,
  excluded: ReadonlySet<string>,
): Candidate[] {
  const candidates: Candidate[] = [];
  const products = listCategoryProducts(category.slug);
  products.forEach((product, rank) => {
    if (excluded.has(product.domain)) return;
    const organization = platform.byDomain.get(product.domain) ?? null;
    const { domain, name, description } = product;
    candidates.push({ domain, name, description, category, organization, rank });
  });
  const uncatalogued = platform.uncataloguedByCategory.get(category.slug) ?? [];
  uncatalogued.forEach((organization, index) => {
    candidates.push({
      domain: organization.domain,
      name: organization.name,
      description: organization.description ?? "",
      category,
      organization,
      rank: products.length + index,
    });
  });
  return candidates;
}

function byPlatformThenRank(a: Candidate, b: Candidate): number {
  return Number(b.organization !== null) - Number(a.organization !== null) || a.rank - b.rank;
}

/**
 * Organisations already on the platform first (proven companies that can add the company back and
 * share its ads), then direct integrations (the easiest partnerships); Array#sort is stable, so
 * ties keep the catalog order the candidates arrived in.
 */
function byPlatformThenIntegration(partnerLabels: ReadonlyMap<string, string>) {
  return (a: Candidate, b: Candidate): number =>
    Number(b.organization !== null) - Number(a.organization !== null) ||
    Number(partnerLabels.has(b.domain)) - Number(partnerLabels.has(a.domain));
}

function toCompetitor(candidate: Candidate, category: CatalogCategory): Suggestion {
  const onPlatform = candidate.organization ? ON_PLATFORM : "";
  return toSuggestion(candidate, {
    direct: false,
    reason: `Also ${category.phrase}${onPlatform}`,
    confidence: SUGGESTION_CONFIDENCE.competitor,
  });
}

function toTool(candidate: Candidate, own: CatalogCategory, partnerLabel: string | undefined): Suggestion {
  if (partnerLabel) {
    return toSuggestion(candidate, {
      direct: true,
      reason: `Integrates natively with ${partnerLabel}`,
      confidence: SUGGESTION_CONFIDENCE.directIntegration,
    });
  }
  const onPlatform = candidate.organization ? ON_PLATFORM : "";
  const phrase = candidate.category.phrase;
  return toSuggestion(candidate, {
    direct: false,
    reason: `${phrase[0]?.toUpperCase()}${phrase.slice(1)} that complements your ${withoutArticle(own.phrase)}${onPlatform}`,
    confidence: SUGGESTION_CONFIDENCE.complement,
  });
}

function toSuggestion(
  candidate: Candidate,
  verdict: { direct: boolean; reason: string; confidence: number },
): Suggestion {
  const { organization } = candidate;
  return {
    name: organization?.name ?? candidate.name,
    url: `https://${candidate.domain}`,
    domain: candidate.domain,
    description: organization?.description || candidate.description,
    category: candidate.category.slug,
    categoryName: candidate.category.name,
    direct_integration: verdict.direct,
    reason: verdict.reason,
    confidence: verdict.confidence,
    isPlatformUser: organization !== null,
    organizationId: organization?.id ?? null,
  };
}

function withoutArticle(phrase: string): string {
  return phrase.replace(/^an? /, "");
}
