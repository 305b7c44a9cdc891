import { describe, expect, it } from "vitest";
import { backoffDelay } from "./backoff";

describe("backoffDelay", () => {
  const backoff = { firstMs: 250, maxMs: 5_000 };

  it("starts at the first wait and doubles it for each retry", () => {
    expect([0, 1, 2, 3, 4].map((retry) => backoffDelay(retry, backoff))).toEqual([
      250, 500, 1_000, 2_000, 4_000,
    ]);
  });

  it("stops growing at the cap, however many retries", () => {
    expect([5, 6, 50, 5_000].map((retry) => backoffDelay(retry, backoff))).toEqual([
      5_000, 5_000, 5_000, 5_000,
    ]);
  });

  it("waits the first wait for a retry numbered below 0", () => {
    expect(backoffDelay(-1, backoff)).toBe(250);
  });
});
