import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useCopyFeedback } from "@/hooks/use-copy-feedback";

function stubClipboard(writeText: (text: string) => Promise<void>) {
  const spy = vi.fn(writeText);
  Object.defineProperty(navigator, "clipboard", { value: { writeText: spy }, configurable: true });
  return spy;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("useCopyFeedback", () => {
  it("copies and reports copied for 2 seconds, restarting the window on a second copy", async () => {
    const writeText = stubClipboard(async () => {});
    vi.useFakeTimers();
    const { result } = renderHook(() => useCopyFeedback());

    await act(() => result.current.copy("first"));
    expect(writeText).toHaveBeenCalledWith("first");
    expect(result.current.copied).toBe(true);

    act(() => vi.advanceTimersByTime(1500));
    await act(() => result.current.copy("second"));
    act(() => vi.advanceTimersByTime(1999));
    expect(result.current.copied).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.copied).toBe(false);
  });

  it("rejects without claiming success when the clipboard refuses", async () => {
    stubClipboard(async () => {
      throw new Error("denied");
    });
    const { result } = renderHook(() => useCopyFeedback());
    await act(() => expect(result.current.copy("text")).rejects.toThrow("denied"));
    expect(result.current.copied).toBe(false);
  });

  it("markCopied reports copied for 2 seconds for a caller that wrote to the clipboard itself", () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useCopyFeedback());
    act(() => result.current.markCopied());
    expect(result.current.copied).toBe(true);
    act(() => vi.advanceTimersByTime(2000));
    expect(result.current.copied).toBe(false);
  });
});
