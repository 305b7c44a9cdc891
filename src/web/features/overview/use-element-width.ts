import { type RefObject, useLayoutEffect, useState } from "react";

/**
 * The element's content width in CSS pixels, following resizes. Until it is measured (or where
 * layout is not computed, as in jsdom) it reports `fallback`.
 */
export function useElementWidth(ref: RefObject<HTMLElement | null>, fallback: number): number {
  const [width, setWidth] = useState(fallback);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = (next: number) => {
      if (next > 0) setWidth(Math.round(next));
    };
    update(element.getBoundingClientRect().width);
    const observer = new ResizeObserver(([entry]) => update(entry?.contentRect.width ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);

  return width;
}
