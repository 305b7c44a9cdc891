import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { withTimeout } from "./bounded-wait";

class Late extends Error {}
const late = () => {
  throw new Late();
};

describe("withTimeout", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("passes an answer in time through and clears its timer", async () => {
    const onTimeout = vi.fn(() => null);
    await expect(withTimeout(Promise.resolve(42), 1_000, onTimeout)).resolves.toBe(42);
    expect(vi.getTimerCount()).toBe(0);
    expect(onTimeout).not.toHaveBeenCalled();
  });

  it("passes a failure in time through and clears its timer", async () => {
    const failure = new Error("refused");
    await expect(withTimeout(Promise.reject(failure), 1_000, late)).rejects.toBe(failure);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("answers what onTimeout returns once the time is up", async () => {
    let answer: (value: number) => void = () => {};
    const work = new Promise<number>((resolve) => {
      answer = resolve;
    });
    const waited = withTimeout(work, 1_000, () => null);
    await vi.advanceTimersByTimeAsync(999);
    answer(7);
    await expect(waited).resolves.toBe(7);

    const slow = withTimeout(new Promise<number>(() => {}), 1_000, () => null);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(slow).resolves.toBeNull();
  });

  it("rejects with what onTimeout throws, and ignores the work's later failure", async () => {
    let fail: (error: Error) => void = () => {};
    const work = new Promise<number>((_, reject) => {
      fail = reject;
    });
    const waited = withTimeout(work, 50, late);
    const settled = expect(waited).rejects.toBeInstanceOf(Late);
    await vi.advanceTimersByTimeAsync(50);
    await settled;
    // Handled by withTimeout: no unhandled rejection fails the run.
    fail(new Error("too late"));
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
