import { afterEach, describe, expect, it, vi } from "vitest";
import { keepClearOfToasts, overlaps, TOAST_BAND_PX, toastBand } from "@/components/ui/toast-clearance";

function rect(left: number, top: number, width: number, height: number) {
  return { left, top, right: left + width, bottom: top + height };
}

/** An element whose box is `box`, with a spy for scrollIntoView (jsdom lays nothing out). */
function elementAt(box: ReturnType<typeof rect>) {
  const element = document.createElement("div");
  element.getBoundingClientRect = () => ({
    ...box,
    x: box.left,
    y: box.top,
    width: 0,
    height: 0,
    toJSON() {},
  });
  const scrollIntoView = vi.fn();
  element.scrollIntoView = scrollIntoView;
  return { element, scrollIntoView };
}

function viewport(width: number, height: number) {
  vi.stubGlobal("innerWidth", width);
  vi.stubGlobal("innerHeight", height);
}

afterEach(() => vi.unstubAllGlobals());

describe("toastBand", () => {
  it("is the bottom-right corner notices take on a wide screen", () => {
    expect(toastBand(1280, 720)).toEqual({
      left: 1280 - 24 - 356,
      right: 1256,
      top: 720 - TOAST_BAND_PX,
      bottom: 720,
    });
  });

  it("spans the whole width on a phone, as sonner lays notices out there", () => {
    expect(toastBand(390, 844)).toEqual({ left: 0, right: 390, top: 844 - TOAST_BAND_PX, bottom: 844 });
  });
});

describe("keepClearOfToasts", () => {
  it("moves a row a notice would cover above the notices", () => {
    viewport(390, 844);
    const { element, scrollIntoView } = elementAt(rect(16, 800, 300, 32));
    keepClearOfToasts(element);
    expect(scrollIntoView).toHaveBeenCalledWith({ block: "nearest", inline: "nearest", behavior: "instant" });
  });

  it("leaves a row where it is when no notice can reach it", () => {
    viewport(1280, 720);
    // High on the page, or low but left of the notices' corner.
    for (const box of [rect(900, 100, 300, 32), rect(300, 680, 400, 32)]) {
      const { element, scrollIntoView } = elementAt(box);
      keepClearOfToasts(element);
      expect(scrollIntoView).not.toHaveBeenCalled();
    }
    expect(overlaps(rect(900, 680, 300, 32), toastBand(1280, 720))).toBe(true);
  });
});
