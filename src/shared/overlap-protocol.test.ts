import sodium from "libsodium-wrappers-sumo";
import { beforeAll, describe, expect, it } from "vitest";
import {
  answerRun,
  blindPoints,
  completeRun,
  decodePoint,
  encodePoint,
  hashToGroup,
  OverlapProtocolError,
  runResult,
  startRun,
} from "./overlap-protocol";

beforeAll(async () => {
  await sodium.ready;
});

const domains = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${i}.example.com`);

/** Two known sets: A holds 300, B 250, and 77 domains are in both. */
function knownSets() {
  const common = domains("common-", 77);
  const a = [...domains("a-", 223), ...common];
  const b = [...common, ...domains("b-", 173)];
  return { a, b, common };
}

function runAll(a: string[], b: string[], level: "counts" | "overlaps") {
  const started = startRun(sodium, a);
  const answered = answerRun(sodium, b, started.points, level);
  const completed = completeRun(
    sodium,
    started.scalar,
    { doubled: answered.doubled, partnerPoints: answered.points },
    level,
  );
  const relayed = runResult(answered.doubled, completed.doubled, level);
  return { started, answered, completed, relayed };
}

describe("the overlap protocol (DH-PSI on ristretto255)", () => {
  it("counts exactly the domains both sets hold, on both sides and at the relay", () => {
    const { a, b } = knownSets();
    for (const level of ["counts", "overlaps"] as const) {
      const { completed, relayed } = runAll(a, b, level);
      expect(completed.count).toBe(77);
      expect(relayed.count).toBe(77);
    }
  });

  it("is exact at the edges: disjoint sets share 0, a set with itself shares all", () => {
    expect(runAll(domains("x", 60), domains("y", 60), "counts").relayed.count).toBe(0);
    const same = domains("same", 60);
    expect(runAll(same, [...same].reverse(), "counts").relayed.count).toBe(60);
  });

  it("in Overlaps mode maps each side's positions back to exactly its own shared accounts", () => {
    const { a, b, common } = knownSets();
    const { started, answered, completed, relayed } = runAll(a, b, "overlaps");
    const startersOwn = (completed.positions ?? []).map((i) => started.order[i]);
    expect(startersOwn.sort()).toEqual([...common].sort());
    expect((relayed.starter ?? []).map((i) => started.order[i]).sort()).toEqual([...common].sort());
    expect((relayed.responder ?? []).map((j) => answered.order[j]).sort()).toEqual([...common].sort());
  });

  it("in Counts mode shuffles what each side returns, so positions say nothing", () => {
    const { a, b } = knownSets();
    const { started, answered, completed, relayed } = runAll(a, b, "counts");
    expect(completed.positions).toBeNull();
    expect(relayed.starter).toBeNull();
    expect(relayed.responder).toBeNull();
    // The starter's own points, blinded again by B in their order, would line up with B's answer
    // position by position; shuffled, they do not (the chance of 300 fixed points is nil).
    const inOrder = blindPoints(sodium, started.scalar, answered.points);
    expect(completed.doubled).not.toEqual(inOrder);
    expect(new Set(completed.doubled)).toEqual(new Set(inOrder));
    // And B's answer is a permutation of A's points blinded by b, not in A's order.
    const positionsOfMatches = runAll(a, b, "overlaps").completed.positions;
    expect(positionsOfMatches).not.toBeNull();
    expect(answered.doubled).toHaveLength(started.points.length);
  });

  it("sends nothing a dictionary could reverse: no H(domain), and fresh scalars per run", () => {
    const { a } = knownSets();
    const first = startRun(sodium, a);
    const second = startRun(sodium, a);
    const plain = new Set(a.map((d) => encodePoint(sodium, hashToGroup(sodium, d))));
    for (const point of [...first.points, ...second.points]) expect(plain.has(point)).toBe(false);
    // Two runs over the same list cannot be linked by their points.
    expect(first.points.filter((p) => new Set(second.points).has(p))).toEqual([]);
  });

  it("refuses a received value that is not a ristretto255 point", () => {
    const { a } = knownSets();
    const started = startRun(sodium, a);
    const garbage = encodePoint(sodium, new Uint8Array(32).fill(0xff));
    expect(() =>
      answerRun(sodium, domains("b", 60), [garbage, ...started.points.slice(1)], "counts"),
    ).toThrow(OverlapProtocolError);
  });

  it("hashes to a point deterministically, the same for the same domain everywhere", () => {
    const one = encodePoint(sodium, hashToGroup(sodium, "acme.co.uk"));
    expect(encodePoint(sodium, hashToGroup(sodium, "acme.co.uk"))).toBe(one);
    expect(decodePoint(sodium, one)).toHaveLength(32);
    expect(encodePoint(sodium, hashToGroup(sodium, "acme.com"))).not.toBe(one);
  });
});
