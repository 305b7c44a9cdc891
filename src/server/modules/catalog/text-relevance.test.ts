import { describe, expect, it } from "vitest";
import { buildTextIndex, rankCategoriesByText, tokenize } from "./text-relevance";

describe("tokenize", () => {
  it("lower-cases words and drops stop words and filler", () => {
    expect(tokenize("The Best CRM for YOUR team")).toEqual(["crm", "team"]);
  });

  it("lets 'e-mail' and 'email', 'e-commerce' and 'ecommerce' meet", () => {
    expect(tokenize("E-mail")).toEqual(tokenize("email"));
    expect(tokenize("e-commerce")).toEqual(tokenize("ecommerce"));
  });

  it("maps inflections onto one stem", () => {
    expect(tokenize("invoices invoicing invoice")).toEqual(["invoic", "invoic", "invoic"]);
    expect(tokenize("schedules scheduling")).toEqual(["schedul", "schedul"]);
    expect(tokenize("companies")).toEqual(["company"]);
    expect(tokenize("categories analytics status")).toEqual(["category", "analytic", "status"]);
  });
});

describe("rankCategoriesByText", () => {
  it.each([
    ["Help desk ticketing for customer support teams", "help-desk"],
    ["Payroll and benefits for small businesses", "hr-payroll"],
    ["Open-source feature flags for developers", "feature-flags"],
    ["Transactional e-mail API for developers", "transactional-email"],
    ["We run partner programs and co-marketing for SaaS ecosystems", "partner-ecosystem"],
    ["Invoicing and bookkeeping for freelancers", "accounting"],
    ["Kanban boards and task tracking", "project-management"],
    ["Uptime monitoring and status pages", "uptime-monitoring"],
    ["Headless CMS", "cms"],
  ])("puts '%s' in %s", (text, slug) => {
    expect(rankCategoriesByText(text)[0]?.slug).toBe(slug);
  });

  it("returns categories best first with positive scores, up to the limit", () => {
    const ranked = rankCategoriesByText("e-mail marketing newsletters", 4);
    expect(ranked).toHaveLength(4);
    expect(ranked[0]?.slug).toBe("email-marketing");
    for (const [index, entry] of ranked.entries()) {
      expect(entry.score).toBeGreaterThan(0);
      if (index > 0) expect(entry.score).toBeLessThanOrEqual(ranked[index - 1]?.score ?? 0);
    }
  });

  it("returns nothing when no word matches", () => {
    expect(rankCategoriesByText("")).toEqual([]);
    expect(rankCategoriesByText("the and of your")).toEqual([]);
    expect(rankCategoriesByText("zzqx")).toEqual([]);
  });
});

describe("buildTextIndex", () => {
  const categories = new Map([
    ["crm", { slug: "crm", name: "CRM", phrase: "a CRM", complements: [] }],
    ["payments", { slug: "payments", name: "Payments", phrase: "a payment provider", complements: [] }],
  ]);
  const product = (name: string, category: string, description: string) => ({
    name,
    domain: `${name.toLowerCase()}.example`,
    category,
    description,
  });

  it("scores a category by its best-matching products", () => {
    const index = buildTextIndex(
      [
        product("Alpha", "crm", "Pipeline and deal tracking for sales teams."),
        product("Beta", "crm", "Contact management for sales."),
        product("Gamma", "payments", "Card payments and checkout."),
      ],
      categories,
    );
    expect(index.rankCategories("sales pipeline").map((entry) => entry.slug)).toEqual(["crm"]);
    expect(index.rankCategories("checkout")[0]?.slug).toBe("payments");
  });
});
