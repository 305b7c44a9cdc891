import type { UncountedSide } from "@shared/tracking";
import { describe, expect, it } from "vitest";
import { describeUncounted } from "@/features/overview/describe-uncounted";

const side = (reasons: Partial<UncountedSide["reasons"]>): UncountedSide => {
  const all = {
    bot: 0,
    repeat: 0,
    burst: 0,
    source_cap: 0,
    own_click: 0,
    blocked: 0,
    not_live: 0,
    ...reasons,
  };
  return { total: Object.values(all).reduce((sum, n) => sum + n, 0), reasons: all };
};

describe("describeUncounted", () => {
  it("says how many did not count and why, the most frequent first, in plain words", () => {
    expect(describeUncounted(side({ repeat: 3, bot: 9 }), "sent")).toBe("12 not counted: 9 bots, 3 repeats");
    expect(
      describeUncounted(side({ burst: 2, source_cap: 4, own_click: 1, blocked: 1, not_live: 2 }), "sent"),
    ).toBe(
      "10 not counted: 4 over the daily limit for one network, 2 bursts (mail scanners), 2 on ads not live, 1 your own team's click, 1 on a blocked pair",
    );
  });

  it("calls the sender's own clicks theirs on received clicks", () => {
    expect(describeUncounted(side({ own_click: 2 }), "received")).toBe(
      "2 not counted: 2 the sender's own team's clicks",
    );
  });

  it("says every click counted when none was left out", () => {
    expect(describeUncounted(side({}), "received")).toBe("Every click counted");
  });

  it("groups thousands", () => {
    expect(describeUncounted(side({ bot: 1200 }), "sent")).toBe("1,200 not counted: 1,200 bots");
  });
});
