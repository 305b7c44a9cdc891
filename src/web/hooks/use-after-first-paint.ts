import { startTransition, useEffect, useState } from "react";

/**
 * False for a screen's first render, then true, set in a transition: what a screen shows below its
 * first view renders after the first view has painted, in slices the browser can interrupt, rather
 * than in the same long task.
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => startTransition(() => setPainted(true)), []);
  return painted;
}
