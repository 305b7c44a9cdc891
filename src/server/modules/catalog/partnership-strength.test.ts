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
};

const FITS_WEAKEST_FIRST: CategoryFit[] = ["same", "unrelated", "unknown", "complement"];
const COUNTS = [0, 1, 3, 10, 40, 100, 1000, 100_000];

describe("partnershipStrength", () => {
  it("scores category fit alone: complement 4, unknown 2, unrelated 1, same 0", () => {
    expect(FITS_WEAKEST_FIRST.map((categoryFit) => partnershipStrength({ ...quiet, categoryFit }))).toEqual([
      0, 1, 2, 4,
    ]);
  });

  it("adds 2 for a native integration", () => {
    expect(partnershipStrength({ ...quiet, nativeIntegration: true })).toBe(6);
  });

  it("reaches 10 for an integrated complement with heavy two-way traffic", () => {
    const busy = { clicksSent: 800, clicksReceived: 700, leadsSent: 60, leadsReceived: 50 };
    expect(partnershipStrength({ ...quiet, ...busy, nativeIntegration: true })).toBe(10);
  });

  it("rewards reciprocity over the same traffic flowing one way", () => {
    const oneWay = partnershipStrength({ ...quiet, categoryFit: "unknown", clicksSent: 20 });
    const bothWays = partnershipStrength({
      ...quiet,
      categoryFit: "unknown",
      clicksSent: 10,
      clicksReceived: 10,
    });
    expect(bothWays).toBeGreaterThan(oneWay);
  });

  it("keeps competitor pairs low whatever the traffic", () => {
    const everything = {
      nativeIntegration: true,
      clicksSent: 1e6,
      clicksReceived: 1e6,
      leadsSent: 1e4,
      leadsReceived: 1e4,
    };
    expect(partnershipStrength({ ...quiet, ...everything, categoryFit: "same" })).toBe(3);
  });

  it("returns an integer from 0 to 10 and treats negative or missing counts as zero", () => {
    expect(partnershipStrength({ ...quiet, clicksSent: -50, leadsReceived: Number.NaN })).toBe(4);
    expect(partnershipStrength({ ...quiet, clicksSent: Number.POSITIVE_INFINITY })).toBe(6);
    for (const categoryFit of FITS_WEAKEST_FIRST) {
      for (const count of COUNTS) {
        const score = partnershipStrength({ ...quiet, categoryFit, clicksSent: count, leadsReceived: count });
        expect(Number.isInteger(score)).toBe(true);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(10);
      }
    }
  });

  it("never drops when any single input grows", () => {
    const numeric = ["clicksSent", "clicksReceived", "leadsSent", "leadsReceived"] as const;
    for (const categoryFit of FITS_WEAKEST_FIRST) {
      for (const nativeIntegration of [false, true]) {
        for (const base of [0, 2, 50]) {
          const start: PartnershipSignals = {
            categoryFit,
            nativeIntegration,
            clicksSent: base,
            clicksReceived: 0,
            leadsSent: 0,
            leadsReceived: base,
          };
          for (const key of numeric) {
            let previous = -1;
            for (const count of COUNTS) {
              const score = partnershipStrength({ ...start, [key]: count });
              expect(
                score,
                `${categoryFit} ${nativeIntegration} ${base} ${key}=${count}`,
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
