/** A retry's first wait and the longest it may grow to. */
export type Backoff = { firstMs: number; maxMs: number };

/**
 * The wait before retry number `retry` (0 for the first): `firstMs`, doubled for every retry before
 * it, up to `maxMs`. Doubling leaves alone what stays down for long; the cap bounds how late its
 * return is noticed.
 */
export function backoffDelay(retry: number, { firstMs, maxMs }: Backoff): number {
  return Math.min(maxMs, firstMs * 2 ** Math.max(0, retry));
}
