import { describe, expect, it } from "vitest";
import { findCatalogCategory, listCategoryProducts } from "../catalog/catalog";
import {
  DEFAULT_SUGGESTION_LIMITS,
  type EcosystemSuggestions,
  type PlatformOrganization,
  type SuggestEcosystemContext,
  type Suggestion,
  suggestEcosystem,
} from "./suggestion-engine";

const noContext: SuggestEcosystemContext = { platformOrganizations: [], excludedDomains: new Set() };
const unlimited = { competitors: 1000, toolsPerCategory: 1000, categories: 1000 };

function organization(id: string, domain: string, category: string | null, name = id): PlatformOrganization {
  return { id, name, domain, description: `${name} description`, category };
}

function allTools(result: EcosystemSuggestions): Suggestion[] {
  return result.categories.flatMap((category) => category.tools);
}

function toolsIn(result: EcosystemSuggestions, slug: string): Suggestion[] {
  return result.categories.find((category) => category.slug === slug)?.tools ?? [];
}

function findTool(result: EcosystemSuggestions, domain: string): Suggestion | undefined {
  return allTools(result).find((tool) => tool.domain === domain);
}

describe("suggestEcosystem: the company's category", () => {
  it("comes from the company's own catalog entry, whatever form its website takes", () => {
    const result = suggestEcosystem({ domain: "https://www.Klaviyo.com/pricing" }, noContext);
    expect(result.category).toEqual({ slug: "email-marketing", name: "E-mail Marketing", source: "catalog" });
  });

  it("comes from its name, description and domain words when the catalog does not know it", () => {
    const result = suggestEcosystem(
      {
        domain: "acme-helpdesk.io",
        name: "Acme",
        description: "Ticketing and a shared inbox for support teams",
      },
      noContext,
    );
    expect(result.category).toEqual({ slug: "help-desk", name: "Help Desk", source: "text" });
    expect(suggestEcosystem({ domain: "acme-payroll.io" }, noContext).category?.slug).toBe("hr-payroll");
  });

  it("is null, with nothing suggested, when nothing matches", () => {
    expect(suggestEcosystem({ domain: "zzqx.example", description: "zzqx qqzx" }, noContext)).toEqual({
      category: null,
      competitors: [],
      categories: [],
    });
  });
});

describe("suggestEcosystem: competitors", () => {
  it("are the other products of the category in catalog order, with the SPEC confidence", () => {
    const result = suggestEcosystem({ domain: "klaviyo.com" }, noContext);
    const expected = listCategoryProducts("email-marketing")
      .map((product) => product.domain)
      .filter((domain) => domain !== "klaviyo.com")
      .slice(0, DEFAULT_SUGGESTION_LIMITS.competitors);
    expect(result.competitors.map((competitor) => competitor.domain)).toEqual(expected);
    expect(result.competitors[0]).toEqual({
      name: "Mailchimp",
      url: "https://mailchimp.com",
      domain: "mailchimp.com",
      description: "E-mail marketing and automation platform for small businesses, owned by Intuit.",
      category: "email-marketing",
      categoryName: "E-mail Marketing",
      direct_integration: false,
      reason: "Also an e-mail marketing tool",
      confidence: 0.9,
      isPlatformUser: false,
      organizationId: null,
    });
  });

  it("put platform organisations of the category first and never include the company itself", () => {
    const context: SuggestEcosystemContext = {
      platformOrganizations: [
        organization("org-self", "klaviyo.com", "email-marketing"),
        organization("org-acme", "acme-mail.example", "email-marketing", "Acme Mail"),
        organization("org-drip", "https://www.drip.com", "email-marketing", "Drip Inc"),
      ],
      excludedDomains: new Set(),
    };
    const competitors = suggestEcosystem({ domain: "klaviyo.com" }, context).competitors;
    expect(competitors.map((competitor) => competitor.domain).slice(0, 2)).toEqual([
      "drip.com",
      "acme-mail.example",
    ]);
    expect(competitors.filter((competitor) => competitor.domain === "drip.com")).toHaveLength(1);
    expect(competitors[0]).toMatchObject({
      name: "Drip Inc",
      isPlatformUser: true,
      organizationId: "org-drip",
      reason: "Also an e-mail marketing tool, already on Buddy",
    });
    expect(competitors.some((competitor) => competitor.domain === "klaviyo.com")).toBe(false);
  });

  it("leave out the company's own providers", () => {
    const input = {
      domain: "acme-send.io",
      description: "Transactional e-mail API for developers",
      providers: { transactional: "postmark", marketing: "other" },
    };
    const result = suggestEcosystem(input, { ...noContext, limits: unlimited });
    expect(result.category?.slug).toBe("transactional-email");
    const domains = result.competitors.map((competitor) => competitor.domain);
    expect(domains).toContain("sendgrid.com");
    expect(domains).not.toContain("postmarkapp.com");
  });
});

describe("suggestEcosystem: complementary tools", () => {
  it("come from the complementary categories, in groups named after them", () => {
    const result = suggestEcosystem({ domain: "klaviyo.com" }, { ...noContext, limits: unlimited });
    const complements = findCatalogCategory("email-marketing")?.complements ?? [];
    expect(result.categories.map((group) => group.slug).sort()).toEqual([...complements].sort());
    for (const group of result.categories) {
      expect(group.name).toBe(findCatalogCategory(group.slug)?.name);
      for (const tool of group.tools)
        expect(tool).toMatchObject({ category: group.slug, categoryName: group.name });
    }
  });

  it("mark native integrations with the company's own entry and name it", () => {
    const result = suggestEcosystem({ domain: "klaviyo.com" }, noContext);
    expect(findTool(result, "shopify.com")).toMatchObject({
      direct_integration: true,
      reason: "Integrates natively with Klaviyo",
      confidence: 0.9,
    });
  });

  it("mark native integrations with the company's providers and name the provider", () => {
    const input = {
      domain: "acme-crm.io",
      description: "CRM for small sales teams",
      providers: { transactional: "postmark", marketing: "customerio" },
    };
    const result = suggestEcosystem(input, { ...noContext, limits: unlimited });
    expect(result.category?.slug).toBe("crm");
    expect(findTool(result, "zapier.com")).toMatchObject({
      direct_integration: true,
      reason: "Integrates natively with Postmark, your transactional e-mail provider",
      confidence: 0.9,
    });
    expect(findTool(result, "twilio.com")).toMatchObject({
      direct_integration: true,
      reason: "Integrates natively with Customer.io, your marketing e-mail provider",
    });
  });

  it("name the company's own entry before a provider when a tool integrates with both", () => {
    const result = suggestEcosystem(
      { domain: "klaviyo.com", providers: { transactional: "postmark" } },
      noContext,
    );
    expect(findTool(result, "zapier.com")?.reason).toBe("Integrates natively with Klaviyo");
  });

  it("explain the others by what they complement, at 0.7", () => {
    const result = suggestEcosystem({ domain: "klaviyo.com" }, { ...noContext, limits: unlimited });
    expect(findTool(result, "annexcloud.com")).toMatchObject({
      direct_integration: false,
      reason: "A loyalty program tool that complements your e-mail marketing tool",
      confidence: 0.7,
    });
  });

  it("ignore unknown and 'other' provider values", () => {
    const plain = suggestEcosystem({ domain: "acme-crm.io", description: "CRM for sales teams" }, noContext);
    const odd = suggestEcosystem(
      {
        domain: "acme-crm.io",
        description: "CRM for sales teams",
        providers: { transactional: "other", marketing: "pigeon" },
      },
      noContext,
    );
    expect(odd).toEqual(plain);
    expect(allTools(plain).some((tool) => tool.direct_integration)).toBe(false);
  });

  it("order each group: platform users, then direct integrations, then catalog order", () => {
    const context: SuggestEcosystemContext = {
      platformOrganizations: [
        organization("org-shopify", "https://www.shopify.com/", "ecommerce-platforms", "Shopify"),
        organization("org-acme-shop", "acmeshop.example", "ecommerce-platforms", "Acme Shop"),
        organization("org-ecwid", "ecwid.com", null, "Ecwid"),
      ],
      excludedDomains: new Set(),
    };
    const tools = toolsIn(suggestEcosystem({ domain: "klaviyo.com" }, context), "ecommerce-platforms");
    expect(tools.map((tool) => tool.domain)).toEqual([
      "shopify.com",
      "ecwid.com",
      "acmeshop.example",
      "bigcommerce.com",
      "woocommerce.com",
      "prestashop.com",
      "shopware.com",
      "volusion.com",
    ]);
    expect(tools[0]).toMatchObject({
      isPlatformUser: true,
      organizationId: "org-shopify",
      direct_integration: true,
    });
    expect(tools[2]).toMatchObject({
      name: "Acme Shop",
      description: "Acme Shop description",
      isPlatformUser: true,
      organizationId: "org-acme-shop",
      reason: "An e-commerce platform that complements your e-mail marketing tool, already on Buddy",
      confidence: 0.7,
    });
  });

  it("keep a catalog product in its curated category whatever category its organisation claims", () => {
    const context: SuggestEcosystemContext = {
      platformOrganizations: [organization("org-stripe", "stripe.com", "crm", "Stripe")],
      excludedDomains: new Set(),
      limits: unlimited,
    };
    const result = suggestEcosystem({ domain: "hubspot.com" }, context);
    expect(result.competitors.some((competitor) => competitor.domain === "stripe.com")).toBe(false);
    expect(toolsIn(result, "payments").find((tool) => tool.domain === "stripe.com")?.organizationId).toBe(
      "org-stripe",
    );
  });

  it("leave out platform organisations without a known category", () => {
    const context: SuggestEcosystemContext = {
      platformOrganizations: [
        organization("org-a", "nocategory.example", null),
        organization("org-b", "oddcategory.example", "not-a-category"),
      ],
      excludedDomains: new Set(),
      limits: unlimited,
    };
    const result = suggestEcosystem({ domain: "klaviyo.com" }, context);
    const domains = [...result.competitors, ...allTools(result)].map((suggestion) => suggestion.domain);
    expect(domains).not.toContain("nocategory.example");
    expect(domains).not.toContain("oddcategory.example");
  });

  it("order groups by how many direct integrations they hold, then by complement order", () => {
    const result = suggestEcosystem({ domain: "klaviyo.com" }, { ...noContext, limits: unlimited });
    const complements = findCatalogCategory("email-marketing")?.complements ?? [];
    const keys = result.categories.map((group) => ({
      direct: group.tools.filter((tool) => tool.direct_integration).length,
      order: complements.indexOf(group.slug),
    }));
    for (let index = 1; index < keys.length; index++) {
      const [previous, current] = [keys[index - 1], keys[index]];
      if (!previous || !current) continue;
      expect(previous.direct).toBeGreaterThanOrEqual(current.direct);
      if (previous.direct === current.direct) expect(previous.order).toBeLessThan(current.order);
    }
    expect(result.categories[0]?.tools[0]?.direct_integration).toBe(true);
  });
});

describe("suggestEcosystem: exclusions and limits", () => {
  it("never suggests excluded domains, in any form, as competitors or tools", () => {
    const context: SuggestEcosystemContext = {
      platformOrganizations: [organization("org-blocked", "blocked.example", "ecommerce-platforms")],
      excludedDomains: new Set(["https://www.Mailchimp.com/", "shopify.com", "blocked.example"]),
      limits: unlimited,
    };
    const result = suggestEcosystem({ domain: "klaviyo.com" }, context);
    const domains = [...result.competitors, ...allTools(result)].map((suggestion) => suggestion.domain);
    for (const excluded of ["mailchimp.com", "shopify.com", "blocked.example", "klaviyo.com"]) {
      expect(domains).not.toContain(excluded);
    }
  });

  it("suggests each domain at most once", () => {
    const result = suggestEcosystem({ domain: "hubspot.com" }, { ...noContext, limits: unlimited });
    const domains = [...result.competitors, ...allTools(result)].map((suggestion) => suggestion.domain);
    expect(new Set(domains).size).toBe(domains.length);
  });

  it("applies default limits of 12 competitors, 8 tools per group and 8 groups", () => {
    const result = suggestEcosystem({ domain: "hubspot.com" }, noContext);
    expect(result.competitors).toHaveLength(12);
    expect(result.categories).toHaveLength(8);
    for (const group of result.categories) expect(group.tools.length).toBeLessThanOrEqual(8);
  });

  it("applies given limits, ignoring invalid ones", () => {
    const limited = suggestEcosystem(
      { domain: "hubspot.com" },
      { ...noContext, limits: { competitors: 2, toolsPerCategory: 3, categories: 0 } },
    );
    expect(limited.competitors).toHaveLength(2);
    expect(limited.categories).toEqual([]);
    const odd = suggestEcosystem(
      { domain: "hubspot.com" },
      { ...noContext, limits: { competitors: -4, toolsPerCategory: Number.NaN, categories: 2.9 } },
    );
    expect(odd.competitors).toEqual([]);
    expect(odd.categories).toHaveLength(2);
    expect(odd.categories[0]?.tools.length).toBe(8);
  });
});

describe("suggestEcosystem: purity", () => {
  it("answers the same input the same way and leaves its inputs untouched", () => {
    const organizations = Object.freeze([
      Object.freeze(organization("org-shopify", "https://www.shopify.com/", "ecommerce-platforms")),
      Object.freeze(organization("org-acme", "acmeshop.example", "ecommerce-platforms")),
    ]);
    const excluded = new Set(["mailchimp.com"]);
    const context = { platformOrganizations: organizations, excludedDomains: excluded };
    const input = Object.freeze({
      domain: "klaviyo.com",
      providers: Object.freeze({ transactional: "postmark" }),
    });
    const first = suggestEcosystem(input, context);
    expect(suggestEcosystem(input, context)).toEqual(first);
    expect([...excluded]).toEqual(["mailchimp.com"]);
    expect(organizations[0]?.domain).toBe("https://www.shopify.com/");
  });

  it("gives every suggestion an https URL for its domain, a reason and a SPEC confidence", () => {
    const result = suggestEcosystem({ domain: "stripe.com", providers: { marketing: "hubspot" } }, noContext);
    for (const suggestion of [...result.competitors, ...allTools(result)]) {
      expect(suggestion.url).toBe(`https://${suggestion.domain}`);
      expect(suggestion.reason.length).toBeGreaterThan(10);
      expect([0.9, 0.7]).toContain(suggestion.confidence);
      expect(suggestion.confidence === 0.9).toBe(
        suggestion.direct_integration || result.competitors.includes(suggestion),
      );
    }
  });
});
