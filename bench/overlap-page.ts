// The page of the overlap part's browser figure (bench/overlap.ts bundles it with esbuild): the
// shared protocol and libsodium as the web app's overlap screens load them, timed in Chromium.
import { blindDomains, hashToGroup, startRun } from "@shared/overlap-protocol";
import sodium from "libsodium-wrappers-sumo";

export type BrowserBlinding = {
  /** From this script's start to `sodium.ready` (the WebAssembly compiled and instantiated). */
  readyMs: number;
  /** The first startRun over the domains: a fresh scalar, the shuffle, `a·H(x)` for each. */
  firstStartRunMs: number;
  /** hashToGroup alone over the same domains. */
  hashMs: number;
  /** blindDomains with the scalar Node chose (the same work again, warm), and its points. */
  blindMs: number;
  points: string[];
};

declare global {
  interface Window {
    overlapBench: { blind(domains: string[], scalar: string): Promise<BrowserBlinding> };
  }
}

const started = performance.now();
const ready = sodium.ready.then(() => performance.now() - started);

window.overlapBench = {
  async blind(domains, scalar) {
    const readyMs = await ready;
    let at = performance.now();
    const first = startRun(sodium, domains);
    const firstStartRunMs = performance.now() - at;
    if (first.points.length !== domains.length) throw new Error("startRun lost points");
    at = performance.now();
    for (const domain of domains) hashToGroup(sodium, domain);
    const hashMs = performance.now() - at;
    at = performance.now();
    const points = blindDomains(sodium, scalar, domains);
    const blindMs = performance.now() - at;
    return { readyMs, firstStartRunMs, hashMs, blindMs, points };
  },
};
