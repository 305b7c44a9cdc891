import type { PartnerLedger } from "@shared/reciprocity-schemas";
import { describe, expect, it } from "vitest";
import {
  adWeightBasis,
  adWeightPosition,
  adWeightSentence,
  balanceTone,
  balanceWords,
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

  it("sorts what was sent by clicks, then leads, ties in the server's order", () => {
    expect(order(sortPartners(partners, { key: "sent", direction: "descending" }))).toEqual([
      "a",
      "c",
      "b",
      "d",
    ]);
    expect(order(sortPartners(partners, { key: "sent", direction: "ascending" }))).toEqual([
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
    expect(nextSort({ key: "balance", direction: "ascending" }, "sent")).toEqual({
      key: "sent",
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

  it("lists every currency of either side, with no amount (the empty amount) for a side without it", () => {
    expect(
      revenueLines({
        sent: [{ currency: "USD", value: 49.99 }],
        received: [
          { currency: "EUR", value: 1234.5 },
          { currency: "USD", value: 10 },
        ],
      }),
    ).toEqual([
      { currency: "EUR", sent: null, received: "€1,234.50" },
      { currency: "USD", sent: "$49.99", received: "$10.00" },
    ]);
    expect(revenueLines({ sent: [], received: [] })).toEqual([]);
  });
});

describe("a balance for the reader", () => {
  it("is ahead when the reader sent more, behind when it received more (it owes clicks back), else even", () => {
    // balance = clicks received − clicks sent
    expect([balanceTone(-4), balanceTone(12), balanceTone(0)]).toEqual(["ahead", "behind", "even"]);
  });

  it("says it in the SPEC's words, Sent and Received", () => {
    expect([balanceWords(-4), balanceWords(-1), balanceWords(1204), balanceWords(0)]).toEqual([
      "Sent 4 more clicks",
      "Sent 1 more click",
      "Received 1,204 more clicks",
      "Even",
    ]);
  });
});

describe("the ad weight in words", () => {
  it("is the partner's share of the reader's ad slots against a Buddy with no history", () => {
    expect(adWeightSentence("Quillmail", 1.4)).toBe(
      "Quillmail's ads get 1.4× the usual share of your newsletter ad slots",
    );
    expect(adWeightSentence("Quillmail", 0.25)).toBe(
      "Quillmail's ads get 0.25× the usual share of your newsletter ad slots",
    );
    expect(adWeightSentence("Quillmail", 2.1666)).toBe(
      "Quillmail's ads get 2.17× the usual share of your newsletter ad slots",
    );
  });

  it("says the usual share when the weight is 1 (no history, or as much sent as received)", () => {
    expect(adWeightSentence("Quillmail", 1)).toBe(
      "Quillmail's ads get the usual share of your newsletter ad slots",
    );
    expect(adWeightSentence("Quillmail", 1.001)).toBe(
      "Quillmail's ads get the usual share of your newsletter ad slots",
    );
  });

  it("says what the usual share is and what moves it", () => {
    expect(adWeightBasis(30)).toBe(
      "The usual share is a Buddy's with no history. It follows the last 30 days: the clicks you sent each other, and the leads and sales each of you recorded with its own API key or Stripe.",
    );
  });
});
