import type { MARKETING_PROVIDERS, TRANSACTIONAL_PROVIDERS } from "@shared/onboarding";
import { isValidDomain, normalizeWebsite } from "@shared/website";
import { z } from "zod";
import categoriesJson from "./data/categories.json" with { type: "json" };
import integrationsJson from "./data/integrations.json" with { type: "json" };
import productsJson from "./data/products.json" with { type: "json" };

/**
 * The curated catalog of real software products behind suggestions: categories (with the map of
 * which categories complement which), products, and known native integrations between products.
 * The data lives in ./data/*.json; it is validated once at load so a bad edit fails at start-up
 * (and in catalog.test.ts) instead of producing odd suggestions.
 */

const slugSchema = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "slugs are kebab-case");

const catalogCategorySchema = z.object({
  slug: slugSchema,
  name: z.string().min(1),
  /** Noun phrase with its article, used in reasons: 'Also an e-mail marketing tool'. */
  phrase: z.string().regex(/^an? \S/, "phrases start with 'a ' or 'an '"),
  complements: z.array(slugSchema),
});

const catalogProductSchema = z.object({
  name: z.string().min(1),
  domain: z.string().min(1),
  category: slugSchema,
  description: z.string().min(1).max(140),
});

const integrationSchema = z.tuple([z.string(), z.string()]);

const rawCatalogSchema = z.object({
  categories: z.array(catalogCategorySchema),
  products: z.array(catalogProductSchema),
  integrations: z.array(integrationSchema),
});

export type CatalogCategory = z.infer<typeof catalogCategorySchema>;
export type CatalogProduct = z.infer<typeof catalogProductSchema>;

export type Catalog = {
  categories: readonly CatalogCategory[];
  products: readonly CatalogProduct[];
  integrations: readonly (readonly [string, string])[];
  productsByDomain: ReadonlyMap<string, CatalogProduct>;
  categoriesBySlug: ReadonlyMap<string, CatalogCategory>;
  /** Products of each category in file order, which is the curated popularity order. */
  productsByCategory: ReadonlyMap<string, readonly CatalogProduct[]>;
  /** Symmetric adjacency: domain → domains it integrates with natively. */
  integrationPartners: ReadonlyMap<string, ReadonlySet<string>>;
};

/** Parses and cross-checks catalog data, then builds the lookup indexes. Throws listing every problem. */
export function loadCatalog(raw: unknown): Catalog {
  const { categories, products, integrations } = rawCatalogSchema.parse(raw);
  const problems: string[] = [];

  const categoriesBySlug = new Map<string, CatalogCategory>();
  for (const category of categories) {
    if (categoriesBySlug.has(category.slug)) problems.push(`duplicate category ${category.slug}`);
    categoriesBySlug.set(category.slug, category);
  }
  for (const category of categories) {
    for (const slug of category.complements) {
      if (!categoriesBySlug.has(slug)) problems.push(`${category.slug} complements unknown ${slug}`);
      if (slug === category.slug) problems.push(`${category.slug} complements itself`);
    }
  }

  const productsByDomain = new Map<string, CatalogProduct>();
  const productsByCategory = new Map<string, CatalogProduct[]>(categories.map((c) => [c.slug, []]));
  for (const product of products) {
    // Lookups normalise their input with the one shared rule, so stored domains must already be normal.
    if (normalizeWebsite(product.domain) !== product.domain || !isValidDomain(product.domain)) {
      problems.push(`domain not normalised: ${product.domain}`);
    }
    if (productsByDomain.has(product.domain)) problems.push(`duplicate domain ${product.domain}`);
    productsByDomain.set(product.domain, product);
    const list = productsByCategory.get(product.category);
    if (list) list.push(product);
    else problems.push(`${product.domain} has unknown category ${product.category}`);
  }

  const integrationPartners = new Map<string, Set<string>>();
  for (const [a, b] of integrations) {
    if (!productsByDomain.has(a) || !productsByDomain.has(b))
      problems.push(`integration ${a}↔${b} leaves the catalog`);
    if (a === b) problems.push(`integration ${a} with itself`);
    if (integrationPartners.get(a)?.has(b)) problems.push(`duplicate integration ${a}↔${b}`);
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const partners = integrationPartners.get(from) ?? new Set<string>();
      partners.add(to);
      integrationPartners.set(from, partners);
    }
  }

  if (problems.length > 0) throw new Error(`Invalid suggestions catalog:\n${problems.join("\n")}`);
  return {
    categories,
    products,
    integrations,
    productsByDomain,
    categoriesBySlug,
    productsByCategory,
    integrationPartners,
  };
}

export const CATALOG: Catalog = loadCatalog({
  categories: categoriesJson,
  products: productsJson,
  integrations: integrationsJson,
});

/**
 * SPEC §3 'Provider options' → catalog domains, checked against the shared option lists so a new
 * option cannot be forgotten here. Amazon SES is the catalog's only AWS product, so it owns
 * aws.amazon.com; 'other' names no product.
 */
export const PROVIDER_DOMAINS = {
  transactional: {
    sendgrid: "sendgrid.com",
    postmark: "postmarkapp.com",
    mailgun: "mailgun.com",
    ses: "aws.amazon.com",
    resend: "resend.com",
    other: null,
  },
  marketing: {
    mailchimp: "mailchimp.com",
    klaviyo: "klaviyo.com",
    customerio: "customer.io",
    drip: "drip.com",
    hubspot: "hubspot.com",
    other: null,
  },
} as const satisfies {
  transactional: Record<(typeof TRANSACTIONAL_PROVIDERS)[number], string | null>;
  marketing: Record<(typeof MARKETING_PROVIDERS)[number], string | null>;
};

export type ProviderKind = keyof typeof PROVIDER_DOMAINS;

/** The catalog domain of a SPEC provider option value, or null for 'other' and unknown values. */
export function resolveProviderDomain(kind: ProviderKind, value: string | null | undefined): string | null {
  if (!value) return null;
  const options: Record<string, string | null> = PROVIDER_DOMAINS[kind];
  const key = value.trim().toLowerCase();
  return Object.hasOwn(options, key) ? (options[key] ?? null) : null;
}

/** Accepts any website form (`https://www.Stripe.com/pricing`). */
export function findCatalogProduct(website: string): CatalogProduct | undefined {
  return CATALOG.productsByDomain.get(normalizeWebsite(website));
}

export function findCatalogCategory(slug: string | null | undefined): CatalogCategory | undefined {
  return slug ? CATALOG.categoriesBySlug.get(slug) : undefined;
}

const NO_PRODUCTS: readonly CatalogProduct[] = [];
const NO_PARTNERS: ReadonlySet<string> = new Set();

export function listCategoryProducts(slug: string): readonly CatalogProduct[] {
  return CATALOG.productsByCategory.get(slug) ?? NO_PRODUCTS;
}

/** Domains with a known native integration with this (already normalised) domain. */
export function listIntegrationPartners(domain: string): ReadonlySet<string> {
  return CATALOG.integrationPartners.get(domain) ?? NO_PARTNERS;
}
