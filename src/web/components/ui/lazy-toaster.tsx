import { lazy, Suspense, useEffect, useSyncExternalStore } from "react";
import { LoadBoundary } from "@/components/load-boundary";
import { toasterMounted, toasterWanted, wantToaster } from "@/components/ui/toast";

const Toaster = lazy(() => import("@/components/ui/sonner").then((module) => ({ default: module.Toaster })));

/** A user's first press or key: most notices answer an action, and its request outlasts the load. */
const FIRST_ACTIONS = ["pointerdown", "keydown"] as const;

function Mounted() {
  useEffect(() => toasterMounted(), []);
  return null;
}

/**
 * The page's toaster, loaded at the user's first press or key, or at the first notice (`toast.ts`),
 * whichever comes first: its code is not part of the first screen, nor loaded while it renders.
 */
export function LazyToaster() {
  const wanted = useSyncExternalStore(toasterWanted.subscribe, toasterWanted.get);
  useEffect(() => {
    for (const type of FIRST_ACTIONS)
      window.addEventListener(type, wantToaster, { capture: true, once: true });
    return () => {
      for (const type of FIRST_ACTIONS) window.removeEventListener(type, wantToaster, { capture: true });
    };
  }, []);
  if (!wanted) return null;
  // Without its code the page goes on without notices, rather than failing at the app's root.
  return (
    <LoadBoundary fallback={null}>
      <Suspense fallback={null}>
        <Toaster />
        {/* After the toaster in the tree: its effect runs once the toaster's has subscribed. */}
        <Mounted />
      </Suspense>
    </LoadBoundary>
  );
}
