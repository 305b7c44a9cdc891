import { describe, expect, it } from "vitest";
import { seededRandom } from "../../testing/seeded-random";
import { pickWeighted, type RotationPartner, rotationOf } from "./ad-rotation";

const partner = (organizationId: string, weight: number, ads: string[]): RotationPartner<string> => ({
  organizationId,
  weight,
  ads,
});

describe("pickWeighted", () => {
  it("draws partners in proportion to their weights", () => {
    const random = seededRandom(7);
    const partners = [partner("a", 4, ["a1", "a2"]), partner("b", 1, ["b1"]), partner("c", 0.25, ["c1"])];
    const counts = new Map<string, number>();
    const draws = 20_000;
    for (let i = 0; i < draws; i++) {
      const [ad] = pickWeighted(partners, 1, random);
      const owner = (ad as string)[0] as string;
      counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
    const total = 4 + 1 + 0.25;
    for (const [id, weight] of [
      ["a", 4],
      ["b", 1],
      ["c", 0.25],
    ] as const) {
      expect(Math.abs((counts.get(id) ?? 0) / draws - weight / total)).toBeLessThan(0.01);
    }
  });

  it("repeats no partner while others remain, and no ad at all", () => {
    const random = seededRandom(1);
    const partners = [
      partner("a", 4, ["a1", "a2", "a3"]),
      partner("b", 0.25, ["b1"]),
      partner("c", 1, ["c1", "c2"]),
    ];
    for (let i = 0; i < 200; i++) {
      const picked = pickWeighted(partners, 3, random);
      expect(new Set(picked.map((ad) => ad[0])).size).toBe(3);
      const all = pickWeighted(partners, 10, random);
      expect([...all].sort()).toEqual(["a1", "a2", "a3", "b1", "c1", "c2"]);
    }
  });

  it("draws one ad as the first draw of a longer pick, from the same random numbers", () => {
    const partners = [
      partner("a", 4, ["a1", "a2", "a3"]),
      partner("b", 0.25, ["b1"]),
      partner("c", 1, ["c1", "c2"]),
    ];
    for (let seed = 1; seed <= 500; seed++) {
      expect(pickWeighted(partners, 1, seededRandom(seed))).toEqual(
        pickWeighted(partners, 2, seededRandom(seed)).slice(0, 1),
      );
    }
    // The point may land at the very end of the total: the last partner then.
    expect(pickWeighted(partners, 1, () => 0.999_999_999_999)).toEqual(["c2"]);
    expect(pickWeighted([], 1, Math.random)).toEqual([]);
  });

  it("groups ads by advertiser, weighing an unknown partner 1", () => {
    const rotation = rotationOf(
      [
        { id: "1", targetOrgId: "x" },
        { id: "2", targetOrgId: "y" },
        { id: "3", targetOrgId: "x" },
      ],
      new Map([["x", 2]]),
    );
    expect(rotation.map((p) => [p.organizationId, p.weight, p.ads.map((ad) => ad.id)])).toEqual([
      ["x", 2, ["1", "3"]],
      ["y", 1, ["2"]],
    ]);
  });
});
