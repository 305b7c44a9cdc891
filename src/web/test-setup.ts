import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { toast } from "sonner";
import { afterEach, vi } from "vitest";
import { queryClient } from "@/lib/query-client";

// The first screen of a file also loads its lazy chunks through Vite's transform: on a slow or busy
// machine that alone outlasts findBy's default second.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  // Sonner keeps its notices in one module-wide store and shows the active ones to the next
  // toaster mounted: a test's notices would otherwise appear in the next test's screen.
  toast.dismiss();
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
