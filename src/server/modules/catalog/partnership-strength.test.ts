import { describe, expect, it } from "vitest";
import {
  type CategoryFit,
  classifyCategoryFit,
  hasNativeIntegration,
  type PartnershipSignals,
  partnershipStrength,
} from "./partnership-strength";

const quiet: PartnershipSignals = {
  categoryFit: "complement",
  nativeIntegration: false,
  clicksSent: 0,
  clicksReceived: 0,
  leadsSent: 0,
  leadsReceived: 0,
  salesSent: 0,
  salesReceived: 0,
};

const FITS_WEAKEST_FIRST: CategoryFit[] = ["same", "unrelated", "unknown", "complement"];
const COUNTS = [0, 1, 3, 10, 40, 100, 1000, 100_000];
const NUMERIC = [
  "clicksSent",
  "clicksReceived",
  "leadsSent",
  "leadsReceived",
  "salesSent",
  "salesReceived",
] as const;

describe("partnershipStrength", () => {
  it("scores category fit alone: complement 3, unknown 2, unrelated 1, same 0", () => {
    expect(FITS_WEAKEST_FIRST.map((categoryFit) => partnershipStrength({ ...quiet, categoryFit }))).toEqual([
      0, 1, 2, 3,
    ]);
  });

  it("adds 1 for a native integration", () => {
    expect(partnershipStrength({ ...quiet, nativeIntegration: true })).toBe(4);
  });

  it("moves with traffic and revenue: a pair that trades outgrows any guess", () => {
    // Issue 37: an unrelated pair stayed at 1/10 after $3.7k of revenue.
    const unrelated = { ...quiet, categoryFit: "unrelated" as const };
    expect(partnershipStrength(unrelated)).toBe(1);
    const trading = { clicksSent: 30, clicksReceived: 20, leadsSent: 3, leadsReceived: 2 };
    expect(partnershipStrength({ ...unrelated, ...trading })).toBe(4);
    expect(partnershipStrength({ ...unrelated, ...trading, salesSent: 2, salesReceived: 2 })).toBe(5);
    expect(
      partnershipStrength({
        ...unrelated,
        clicksSent: 60,
        clicksReceived: 40,
        leadsSent: 6,
        leadsReceived: 4,
        salesSent: 5,
        salesReceived: 4,
      }),
    ).toBe(6);
    // The worked examples of docs/decisions.md, "Partnership strength".
    expect(partnershipStrength({ ...quiet, clicksReceived: 50 })).toBe(4);
    expect(partnershipStrength({ ...quiet, clicksSent: 25, clicksReceived: 25 })).toBe(5);
    expect(partnershipStrength({ ...quiet, ...trading, salesSent: 2, salesReceived: 2 })).toBe(7);
  });

  it("counts sales: revenue lifts a pair's strength beyond its leads", () => {
    const leadsOnly = { ...quiet, categoryFit: "unknown" as const, leadsSent: 5, leadsReceived: 5 };
    expect(partnershipStrength({ ...leadsOnly, salesReceived: 9 })).toBeGreaterThan(
      partnershipStrength(leadsOnly),
    );
  });

  it("reaches 10 for an integrated complement with heavy two-way traffic and sales", () => {
    const busy = {
      clicksSent: 800,
      clicksReceived: 700,
      leadsSent: 60,
      leadsReceived: 50,
      salesSent: 30,
      salesReceived: 20,
    };
    expect(partnershipStrength({ ...quiet, ...busy, nativeIntegration: true })).toBe(10);
    // Without any sale it stops short.
    expect(
      partnershipStrength({ ...quiet, ...busy, salesSent: 0, salesReceived: 0, nativeIntegration: true }),
    ).toBe(8);
  });

  it("moves with clicks both ways: the same clicks score more given and taken than one way", () => {
    const oneWay = partnershipStrength({ ...quiet, categoryFit: "unknown", clicksSent: 20 });
    const bothWays = partnershipStrength({
      ...quiet,
      categoryFit: "unknown",
      clicksSent: 10,
      clicksReceived: 10,
    });
    expect(bothWays).toBeGreaterThan(oneWay);
    // Clicks received count as clicks sent do.
    expect(partnershipStrength({ ...quiet, clicksReceived: 100 })).toBe(
      partnershipStrength({ ...quiet, clicksSent: 100 }),
    );
  });

  it("keeps a competitor relationship low whatever the traffic", () => {
    const everything = {
      nativeIntegration: true,
      clicksSent: 1e6,
      clicksReceived: 1e6,
      leadsSent: 1e4,
      leadsReceived: 1e4,
      salesSent: 1e3,
      salesReceived: 1e3,
    };
    expect(partnershipStrength({ ...quiet, ...everything, competitor: true })).toBe(3);
    expect(partnershipStrength({ ...quiet, ...everything, categoryFit: "same", competitor: true })).toBe(3);
  });

  it("lets a Buddy of one's own category grow with what the pair does, from no fit points", () => {
    const same = { ...quiet, categoryFit: "same" as const };
    expect(partnershipStrength(same)).toBe(0);
    const trading = {
      clicksSent: 60,
      clicksReceived: 40,
      leadsSent: 6,
      leadsReceived: 4,
      salesSent: 5,
      salesReceived: 4,
    };
    expect(partnershipStrength({ ...same, ...trading })).toBe(5);
    expect(partnershipStrength({ ...same, ...trading, competitor: true })).toBe(3);
  });

  it("returns an integer from 0 to 10 and treats negative or missing counts as zero", () => {
    expect(partnershipStrength({ ...quiet, clicksSent: -50, leadsReceived: Number.NaN })).toBe(3);
    expect(partnershipStrength({ ...quiet, salesSent: undefined, salesReceived: -3 })).toBe(3);
    expect(partnershipStrength({ ...quiet, clicksSent: Number.POSITIVE_INFINITY })).toBe(5);
    for (const categoryFit of FITS_WEAKEST_FIRST) {
      for (const count of COUNTS) {
        const score = partnershipStrength({
          ...quiet,
          categoryFit,
          clicksSent: count,
          leadsReceived: count,
          salesSent: count,
        });
        expect(Number.isInteger(score)).toBe(true);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(10);
      }
    }
  });

  it("never drops when any single input grows", () => {
    for (const categoryFit of FITS_WEAKEST_FIRST) {
      for (const [nativeIntegration, competitor] of [
        [false, false],
        [true, false],
        [false, true],
        [true, true],
      ] as const) {
        for (const base of [0, 2, 50]) {
          const start: PartnershipSignals = {
            categoryFit,
            competitor,
            nativeIntegration,
            clicksSent: base,
            clicksReceived: 0,
            leadsSent: 0,
            leadsReceived: base,
            salesSent: 0,
            salesReceived: base,
          };
          for (const key of NUMERIC) {
            let previous = -1;
            for (const count of COUNTS) {
              const score = partnershipStrength({ ...start, [key]: count });
              expect(
                score,
                `${categoryFit} ${nativeIntegration} ${competitor} ${base} ${key}=${count}`,
              ).toBeGreaterThanOrEqual(previous);
              previous = score;
            }
          }
          if (!nativeIntegration) {
            expect(partnershipStrength({ ...start, nativeIntegration: true })).toBeGreaterThanOrEqual(
              partnershipStrength(start),
            );
          }
          const byFit = FITS_WEAKEST_FIRST.map((fit) => partnershipStrength({ ...start, categoryFit: fit }));
          expect(byFit).toEqual([...byFit].sort((a, b) => a - b));
        }
      }
    }
  });
});

describe("classifyCategoryFit", () => {
  it.each([
    ["email-marketing", "ecommerce-platforms", "complement"],
    ["ecommerce-platforms", "email-marketing", "complement"],
    ["help-desk", "crm", "complement"],
    ["crm", "crm", "same"],
    ["seo", "incident-management", "unrelated"],
    ["crm", null, "unknown"],
    ["crm", "not-a-category", "unknown"],
    [undefined, undefined, "unknown"],
  ] as const)("finds %s with %s to be %s", (a, b, fit) => {
    expect(classifyCategoryFit(a, b)).toBe(fit);
  });
});

describe("hasNativeIntegration", () => {
  it("finds catalog integrations in either order and from any website form", () => {
    expect(hasNativeIntegration("shopify.com", "klaviyo.com")).toBe(true);
    expect(hasNativeIntegration("https://www.Klaviyo.com/", "http://shopify.com/pricing")).toBe(true);
    expect(hasNativeIntegration("postmarkapp.com", "zapier.com")).toBe(true);
  });

  it("is false for pairs the catalog does not record and for unknown domains", () => {
    expect(hasNativeIntegration("shopify.com", "seranking.com")).toBe(false);
    expect(hasNativeIntegration("shopify.com", "shopify.com")).toBe(false);
    expect(hasNativeIntegration("acme.example", "klaviyo.com")).toBe(false);
  });
});
