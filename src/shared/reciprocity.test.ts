import { describe, expect, it } from "vitest";
import { AD_WEIGHT_CLICKS_MAX, AD_WEIGHT_MAX, AD_WEIGHT_MIN, adWeight, balanceSentence } from "./reciprocity";
import { partnersQuerySchema } from "./reciprocity-schemas";

describe("adWeight", () => {
  it("is 1 with no history, and whenever both gave as much", () => {
    expect(adWeight({ sent: 0, received: 0 })).toBe(1);
    expect(adWeight({ sent: 25, received: 25 })).toBe(1);
    expect(adWeight({ sent: 25, received: 25 }, { sent: 4, received: 4 })).toBe(1);
  });

  it("rises with what the partner gave, and falls as the caller gives without return", () => {
    const received = [0, 1, 5, 10].map((n) => adWeight({ sent: 0, received: n }));
    expect(received).toEqual([...received].sort((a, b) => a - b));
    expect(new Set(received).size).toBe(received.length);
    const given = [0, 1, 5, 10, 20].map((n) => adWeight({ sent: n, received: 0 }));
    expect(given).toEqual([...given].sort((a, b) => b - a));
    const proven = [0, 1, 2, 3].map((n) => adWeight({ sent: 0, received: 10 }, { sent: 0, received: n }));
    expect(new Set(proven).size).toBe(proven.length);
    expect(proven).toEqual([...proven].sort((a, b) => a - b));
    expect(adWeight({ sent: 0, received: 10 })).toBe(2);
    expect(adWeight({ sent: 10, received: 0 })).toBe(0.5);
    // What is given back counts: the same 20 sent weighs more with 15 received.
    expect(adWeight({ sent: 20, received: 15 })).toBeGreaterThan(adWeight({ sent: 20, received: 0 }));
    // Proof the caller gave without return lowers it too.
    expect(adWeight({ sent: 0, received: 10 }, { sent: 6, received: 0 })).toBe(1);
  });

  it("lets counted clicks alone lift it to ×2 at most; beyond that it takes proven leads and sales", () => {
    expect(adWeight({ sent: 0, received: 30 })).toBe(AD_WEIGHT_CLICKS_MAX);
    expect(adWeight({ sent: 0, received: 1_000_000 })).toBe(AD_WEIGHT_CLICKS_MAX);
    expect(adWeight({ sent: 0, received: 30 }, { sent: 0, received: 3 })).toBe(AD_WEIGHT_MAX);
    expect(adWeight({ sent: 20, received: 20 }, { sent: 0, received: 6 })).toBe(2);
    // The replay of issue 36: 35 scripted clicks of which the source cap counts 3.
    expect(adWeight({ sent: 0, received: 3 })).toBeCloseTo(1.3);
  });

  it("stays within [0.25, 4] whatever the traffic and proof", () => {
    expect(adWeight({ sent: 0, received: 1_000_000 }, { sent: 0, received: 1_000_000 })).toBe(AD_WEIGHT_MAX);
    expect(adWeight({ sent: 1_000_000, received: 0 })).toBe(AD_WEIGHT_MIN);
    expect(adWeight({ sent: 1_000_000, received: 0 }, { sent: 1_000_000, received: 0 })).toBe(AD_WEIGHT_MIN);
    expect(adWeight({ sent: 30, received: 0 })).toBe(0.25);
  });
});

describe("the ledger's window", () => {
  it("takes 1 to 365 days, 30 by default, and refuses anything else", () => {
    expect(partnersQuerySchema.parse({})).toEqual({});
    expect(partnersQuerySchema.parse({ days: "90" })).toEqual({ days: 90 });
    for (const days of ["0", "366", "-1", "1.5", "abc", "", "1e2", " 30"]) {
      expect(partnersQuerySchema.safeParse({ days }).success, days).toBe(false);
    }
  });

  it("says what a balance means", () => {
    expect(balanceSentence("Acme", 40)).toBe("Acme sent you 40 more clicks than you sent them");
    expect(balanceSentence("Acme", -1)).toBe("You sent Acme 1 more click than they sent you");
    expect(balanceSentence("Acme", 0)).toBe("You and Acme have sent each other as many clicks");
  });
});
