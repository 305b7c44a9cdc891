import type { PartnerLedger } from "@shared/reciprocity";
import { describe, expect, it } from "vitest";
import {
  adWeightPosition,
  formatAdWeight,
  formatBalance,
  nextSort,
  partnerEntry,
  revenueLines,
  sortPartners,
} from "./partner-figures";
import { makePartner } from "./partners-fixture";

const partners: PartnerLedger[] = [
  makePartner({
    organizationId: "a",
    name: "beta",
    clicks: { sent: 30, received: 10 },
    leads: { sent: 1, received: 0 },
  }),
  makePartner({
    organizationId: "b",
    name: "Alpha",
    clicks: { sent: 5, received: 25 },
    leads: { sent: 0, received: 2 },
  }),
  makePartner({
    organizationId: "c",
    name: "Gamma",
    clicks: { sent: 5, received: 0 },
    leads: { sent: 3, received: 0 },
  }),
  makePartner({ organizationId: "d", name: "Delta" }),
];
const order = (list: PartnerLedger[]) => list.map((partner) => partner.organizationId);

describe("sorting partners", () => {
  it("keeps the server's order without a sort", () => {
    expect(order(sortPartners(partners, null))).toEqual(["a", "b", "c", "d"]);
  });

  it("sorts names A to Z whatever their case, and back", () => {
    expect(order(sortPartners(partners, { key: "name", direction: "ascending" }))).toEqual([
      "b",
      "a",
      "d",
      "c",
    ]);
    expect(order(sortPartners(partners, { key: "name", direction: "descending" }))).toEqual([
      "c",
      "d",
      "a",
      "b",
    ]);
  });

  it("sorts what was given by clicks, then leads, ties in the server's order", () => {
    expect(order(sortPartners(partners, { key: "given", direction: "descending" }))).toEqual([
      "a",
      "c",
      "b",
      "d",
    ]);
    expect(order(sortPartners(partners, { key: "given", direction: "ascending" }))).toEqual([
      "d",
      "b",
      "c",
      "a",
    ]);
  });

  it("sorts by balance and by ad weight", () => {
    expect(order(sortPartners(partners, { key: "balance", direction: "descending" }))).toEqual([
      "b",
      "d",
      "c",
      "a",
    ]);
    expect(order(sortPartners(partners, { key: "adWeight", direction: "ascending" }))).toEqual([
      "a",
      "c",
      "d",
      "b",
    ]);
  });

  it("starts a column at its most useful end and flips the sorted one", () => {
    expect(nextSort(null, "name")).toEqual({ key: "name", direction: "ascending" });
    expect(nextSort(null, "balance")).toEqual({ key: "balance", direction: "descending" });
    expect(nextSort({ key: "balance", direction: "descending" }, "balance")).toEqual({
      key: "balance",
      direction: "ascending",
    });
    expect(nextSort({ key: "balance", direction: "ascending" }, "given")).toEqual({
      key: "given",
      direction: "descending",
    });
  });
});

describe("a partner's entry", () => {
  it("is the server's when listed", () => {
    expect(partnerEntry(partners, { id: "b", name: "Alpha" })).toBe(partners[1]);
  });

  it("is zeros with the weight of no history when the partner is absent", () => {
    expect(partnerEntry(partners, { id: "z", name: "Zeta" })).toEqual({
      organizationId: "z",
      name: "Zeta",
      clicks: { sent: 0, received: 0 },
      leads: { sent: 0, received: 0 },
      revenue: { sent: [], received: [] },
      balance: 0,
      adWeight: 1,
    });
  });
});

describe("the figures as written", () => {
  it("signs balances", () => {
    expect([formatBalance(1204), formatBalance(-12), formatBalance(0)]).toEqual(["+1,204", "-12", "0"]);
  });

  it("writes weights with at most two decimals", () => {
    expect([formatAdWeight(1.9), formatAdWeight(0.25), formatAdWeight(4), formatAdWeight(1.23456)]).toEqual([
      "×1.9",
      "×0.25",
      "×4",
      "×1.23",
    ]);
  });

  it("places ×1 in the middle of the bar, the bounds at its ends", () => {
    expect(adWeightPosition(1)).toBeCloseTo(0.5);
    expect(adWeightPosition(0.25)).toBe(0);
    expect(adWeightPosition(4)).toBe(1);
    expect(adWeightPosition(2)).toBeCloseTo(0.75);
    expect(adWeightPosition(0.5)).toBeCloseTo(0.25);
    expect(adWeightPosition(10)).toBe(1);
  });

  it("lists every currency of either side, with zero for a side without it", () => {
    expect(
      revenueLines({
        sent: [{ currency: "USD", value: 49.99 }],
        received: [
          { currency: "EUR", value: 1234.5 },
          { currency: "USD", value: 10 },
        ],
      }),
    ).toEqual([
      { currency: "EUR", sent: "€0.00", received: "€1,234.50" },
      { currency: "USD", sent: "$49.99", received: "$10.00" },
    ]);
    expect(revenueLines({ sent: [], received: [] })).toEqual([]);
  });
});
