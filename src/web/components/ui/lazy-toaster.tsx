import { lazy, type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from "react";

type Kind = "success" | "error";

// One chunk for both: the toaster and the function that shows a notice in it.
const loadSonner = () => import("@/components/ui/sonner");
const Toaster = lazy(() => loadSonner().then((module) => ({ default: module.Toaster })));

function Mounted({ onMount }: { onMount: () => void }) {
  useEffect(() => onMount(), [onMount]);
  return null;
}

/**
 * Notices for a page that should not load the toaster up front (the sign-in page): the first
 * notice loads and mounts it, then shows. Returns the notify function and the element to render.
 */
export function useLazyNotices(): [(kind: Kind, message: string) => void, ReactNode] {
  const [wanted, setWanted] = useState(false);
  const ready = useRef<{ promise: Promise<void>; resolve: () => void } | null>(null);
  if (!ready.current) {
    let resolve = () => {};
    const promise = new Promise<void>((done) => {
      resolve = done;
    });
    ready.current = { promise, resolve };
  }
  const mounted = ready.current;

  const notify = useCallback(
    (kind: Kind, message: string) => {
      setWanted(true);
      // The toaster only shows notices made after it has mounted and subscribed.
      Promise.all([loadSonner(), mounted.promise]).then(([{ toast }]) => toast[kind](message));
    },
    [mounted],
  );

  const element = wanted ? (
    <Suspense fallback={null}>
      <Toaster />
      {/* After the toaster in the tree: its effect runs once the toaster's has subscribed. */}
      <Mounted onMount={mounted.resolve} />
    </Suspense>
  ) : null;
  return [notify, element];
}
