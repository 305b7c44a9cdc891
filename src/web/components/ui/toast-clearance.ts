/**
 * Where the notices sit (SPEC §9: bottom-right), so that a control can keep clear of the notice it
 * makes. The toaster (`sonner.tsx`) is placed with these numbers, and sonner lays notices out from
 * them: 24 px from the corner, 356 px wide; at 600 px wide or less, 16 px from the edges and the
 * screen's whole width.
 */
export const TOAST_OFFSET_PX = 24;
export const TOAST_MOBILE_OFFSET_PX = 16;
export const TOAST_WIDTH_PX = 356;
/** Sonner's own breakpoint (its stylesheet's `max-width: 600px`). */
export const TOAST_FULL_WIDTH_MAX_PX = 600;
/**
 * The height notices can take from the bottom edge: the offset, a notice of two lines (about
 * 72 px), the two sonner shows peeking behind it (14 px each), and some air.
 */
export const TOAST_BAND_PX = 144;

export type Band = { left: number; right: number; top: number; bottom: number };

/** The part of a viewport of this size that a notice can cover. */
export function toastBand(viewportWidth: number, viewportHeight: number): Band {
  const top = viewportHeight - TOAST_BAND_PX;
  if (viewportWidth <= TOAST_FULL_WIDTH_MAX_PX) {
    return { left: 0, right: viewportWidth, top, bottom: viewportHeight };
  }
  const right = viewportWidth - TOAST_OFFSET_PX;
  return { left: right - TOAST_WIDTH_PX, right, top, bottom: viewportHeight };
}

export function overlaps(rect: Band, band: Band): boolean {
  return rect.bottom > band.top && rect.top < band.bottom && rect.right > band.left && rect.left < band.right;
}

/**
 * Called by a control as it makes a notice: if the notice would cover it, the page scrolls it up
 * just above the notices (its `scroll-margin-bottom` is the band, see KEEP_CLEAR_OF_TOASTS), so the
 * control and those beside it stay visible and clickable while the notice shows. Pages that hold
 * such controls keep content below them to scroll into.
 */
export function keepClearOfToasts(element: Element | null): void {
  if (!element || typeof window === "undefined") return;
  const band = toastBand(window.innerWidth, window.innerHeight);
  if (!overlaps(element.getBoundingClientRect(), band)) return;
  element.scrollIntoView({ block: "nearest", inline: "nearest", behavior: "instant" });
}

/** The class such a control's row carries: a scroll margin as tall as the band (144 px = 9rem). */
export const KEEP_CLEAR_OF_TOASTS = "scroll-mb-36";
