import { describe, expect, it, vi } from "vitest";
import { once } from "@/lib/once";

describe("once", () => {
  it("makes its value on the first call, not before, and keeps it", () => {
    const make = vi.fn(() => ({ made: true }));
    const value = once(make);
    expect(make).not.toHaveBeenCalled();
    const first = value();
    expect(value()).toBe(first);
    expect(make).toHaveBeenCalledTimes(1);
  });
});
