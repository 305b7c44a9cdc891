import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import { queryClient } from "@/lib/query-client";

afterEach(() => {
  cleanup();
  // The app keeps one cache and one storage; every test starts signed out with both empty.
  queryClient.clear();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Radix Select and Tooltip capture pointers, scroll options into view and observe sizes; jsdom
// implements none of it. Plain assignments (not stubGlobal) so they outlive unstubAllGlobals.
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
Element.prototype.scrollIntoView ??= () => {};
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
