import { describe, expect, it } from "vitest";
import { createLoopLoad } from "./loop-load";

const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("loop load", () => {
  it("is busy when other work fills the loop, and not when it idles", async () => {
    const busy = createLoopLoad(0.7, 40);
    spin(60);
    expect(busy(0)).toBe(true);
    await pause(60);
    expect(busy(0)).toBe(false);
  });

  it("does not count the caller's own work", async () => {
    const others = createLoopLoad(0.5, 40);
    const own = createLoopLoad(0.5, 40);
    spin(100);
    await pause(50);
    expect(others(0)).toBe(true);
    expect(own(100)).toBe(false);
  });

  it("judges only once the caller's own work has left it a whole window of other time", async () => {
    const busy = createLoopLoad(0.5, 40);
    spin(60);
    expect(busy(0)).toBe(true);
    // A batch of our own filled the next 100 ms: the 5 ms beside it prove nothing either way.
    spin(100);
    await pause(5);
    expect(busy(100)).toBe(true);
    await pause(50);
    expect(busy(0)).toBe(false);
  });
});
