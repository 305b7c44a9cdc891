import { MARKETING_PROVIDERS, TRANSACTIONAL_PROVIDERS } from "@shared/onboarding";
import { isValidDomain, normalizeWebsite } from "@shared/website";
import { describe, expect, it } from "vitest";
import {
  CATALOG,
  findCatalogProduct,
  listCategoryProducts,
  listIntegrationPartners,
  loadCatalog,
  PROVIDER_DOMAINS,
  resolveProviderDomain,
} from "./catalog";
import categoriesJson from "./data/categories.json" with { type: "json" };
import integrationsJson from "./data/integrations.json" with { type: "json" };
import productsJson from "./data/products.json" with { type: "json" };

// The catalog check: these read the JSON files directly, so they hold even if loadCatalog's own
// validation were loosened.
describe("the suggestions catalog", () => {
  const slugs = new Set(categoriesJson.map((category) => category.slug));
  const domains = new Set(productsJson.map((product) => product.domain));

  it("has at least 500 products in at least 30 categories", () => {
    expect(productsJson.length).toBeGreaterThanOrEqual(500);
    expect(categoriesJson.length).toBeGreaterThanOrEqual(30);
    for (const slug of slugs) expect(listCategoryProducts(slug).length, slug).toBeGreaterThanOrEqual(5);
  });

  it("stores every domain normalised, valid and unique", () => {
    for (const { domain } of productsJson) {
      expect(normalizeWebsite(domain), domain).toBe(domain);
      expect(isValidDomain(domain), domain).toBe(true);
    }
    expect(domains.size).toBe(productsJson.length);
  });

  it("gives every product a known category, a name and a one-line description of at most 140 characters", () => {
    for (const product of productsJson) {
      expect(slugs.has(product.category), product.domain).toBe(true);
      expect(product.name.trim(), product.domain).not.toBe("");
      expect(product.description.trim().length, product.domain).toBeGreaterThan(0);
      expect(product.description.length, product.domain).toBeLessThanOrEqual(140);
      expect(product.description, product.domain).not.toContain("\n");
    }
  });

  it("has unique category slugs with a name and an 'a/an' phrase", () => {
    expect(slugs.size).toBe(categoriesJson.length);
    for (const category of categoriesJson) {
      expect(category.name.trim()).not.toBe("");
      expect(category.phrase).toMatch(/^an? \S/);
    }
  });

  it("lets every category complement at least 3 existing others, symmetrically", () => {
    const bySlug = new Map(categoriesJson.map((category) => [category.slug, category]));
    for (const category of categoriesJson) {
      expect(new Set(category.complements).size, category.slug).toBe(category.complements.length);
      expect(category.complements.length, category.slug).toBeGreaterThanOrEqual(3);
      for (const slug of category.complements) {
        expect(slug, category.slug).not.toBe(category.slug);
        expect(bySlug.get(slug)?.complements, `${slug} → ${category.slug}`).toContain(category.slug);
      }
    }
  });

  it("records at least 400 integrations, each between two different catalog products, without duplicates", () => {
    expect(integrationsJson.length).toBeGreaterThanOrEqual(400);
    const seen = new Set<string>();
    for (const pair of integrationsJson) {
      expect(pair).toHaveLength(2);
      const [a = "", b = ""] = pair;
      expect(domains.has(a), a).toBe(true);
      expect(domains.has(b), b).toBe(true);
      expect(a).not.toBe(b);
      const key = [a, b].sort().join(" ");
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });

  it("maps every SPEC provider option but 'other' to a catalog product", () => {
    for (const option of TRANSACTIONAL_PROVIDERS) {
      const domain = resolveProviderDomain("transactional", option);
      if (option === "other") expect(domain).toBeNull();
      else expect(domain && findCatalogProduct(domain)?.category, option).toBe("transactional-email");
    }
    for (const option of MARKETING_PROVIDERS) {
      const domain = resolveProviderDomain("marketing", option);
      if (option === "other") expect(domain).toBeNull();
      else expect(domain && findCatalogProduct(domain), option).toBeDefined();
    }
    expect(PROVIDER_DOMAINS.transactional.ses).toBe("aws.amazon.com");
    expect(findCatalogProduct("aws.amazon.com")?.name).toBe("Amazon SES");
  });

  it("gives each SPEC provider several native integrations", () => {
    const providers = [
      ...Object.values(PROVIDER_DOMAINS.transactional),
      ...Object.values(PROVIDER_DOMAINS.marketing),
    ];
    for (const domain of providers) {
      if (domain) expect(listIntegrationPartners(domain).size, domain).toBeGreaterThanOrEqual(5);
    }
  });
});

describe("catalog lookups", () => {
  it("find a product from any form of its website", () => {
    expect(findCatalogProduct("https://www.Klaviyo.com/pricing")?.domain).toBe("klaviyo.com");
    expect(findCatalogProduct("unknown-company.example")).toBeUndefined();
  });

  it("index integrations in both directions", () => {
    expect(listIntegrationPartners("shopify.com").has("klaviyo.com")).toBe(true);
    expect(listIntegrationPartners("klaviyo.com").has("shopify.com")).toBe(true);
    expect(listIntegrationPartners("unknown-company.example").size).toBe(0);
  });

  it("keep each category's products in file order", () => {
    const inFile = productsJson.filter((product) => product.category === "payments").map((p) => p.domain);
    expect(listCategoryProducts("payments").map((product) => product.domain)).toEqual(inFile);
    expect(listCategoryProducts("no-such-category")).toEqual([]);
  });

  it("treat unknown and prototype-like provider values as no provider", () => {
    expect(resolveProviderDomain("marketing", "constructor")).toBeNull();
    expect(resolveProviderDomain("marketing", undefined)).toBeNull();
    expect(resolveProviderDomain("marketing", " Klaviyo ")).toBe("klaviyo.com");
  });
});

describe("loadCatalog", () => {
  const category = (slug: string, complements: string[]) => ({
    slug,
    name: slug,
    phrase: `a ${slug} tool`,
    complements,
  });
  const product = (domain: string, categorySlug = "crm") => ({
    name: domain,
    domain,
    category: categorySlug,
    description: "A product.",
  });
  const valid = {
    categories: [category("crm", ["help-desk"]), category("help-desk", ["crm"])],
    products: [product("a.com"), product("b.com", "help-desk")],
    integrations: [["a.com", "b.com"]],
  };

  it("builds indexes from valid data", () => {
    const catalog = loadCatalog(valid);
    expect(catalog.productsByDomain.get("a.com")?.category).toBe("crm");
    expect(catalog.integrationPartners.get("b.com")?.has("a.com")).toBe(true);
    expect(CATALOG.products.length).toBe(productsJson.length);
  });

  it.each([
    [
      "a duplicate domain",
      { ...valid, products: [product("a.com"), product("a.com")] },
      "duplicate domain a.com",
    ],
    ["an unnormalised domain", { ...valid, products: [product("www.A.com")] }, "domain not normalised"],
    ["an unknown category", { ...valid, products: [product("a.com", "nope")] }, "unknown category nope"],
    [
      "an unknown complement",
      { ...valid, categories: [category("crm", ["nope"]), category("help-desk", [])] },
      "complements unknown nope",
    ],
    ["a dangling integration", { ...valid, integrations: [["a.com", "x.com"]] }, "leaves the catalog"],
    ["a self integration", { ...valid, integrations: [["a.com", "a.com"]] }, "with itself"],
    [
      "a duplicate integration",
      {
        ...valid,
        integrations: [
          ["a.com", "b.com"],
          ["b.com", "a.com"],
        ],
      },
      "duplicate integration",
    ],
  ])("rejects %s", (_label, data, message) => {
    expect(() => loadCatalog(data)).toThrow(message);
  });

  it("rejects a description longer than 140 characters", () => {
    const long = { ...product("a.com"), description: "x".repeat(141) };
    expect(() => loadCatalog({ ...valid, products: [long] })).toThrow();
  });
});
