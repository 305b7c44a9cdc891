/** A 1×1 transparent GIF: the pixel's answer. */
export const PIXEL_GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/** The pixel's own headers, beside the security headers: other sites embed it, and each hit counts. */
export const PIXEL_HEADERS = {
  "cache-control": "no-store",
  "cross-origin-resource-policy": "cross-origin",
  "content-type": "image/gif",
} as const;

/**
 * CONTRACT §5: the pixel needs no key, so anyone who saw a click id can call it. It records leads
 * only: money, idempotency keys and customer bindings would let that anyone add revenue to an
 * advertiser, take its order ids or hand its customers to a click. They come with the advertiser's
 * key (POST /api/marketing/conversion) or from its Stripe.
 */
export const KEYED_ONLY_PIXEL_FIELDS = ["value", "currency", "eventId", "customerId"] as const;

export const PIXEL_LEADS_ONLY_MESSAGE =
  "The pixel records leads only: send value, currency, eventId and customerId with POST /api/marketing/conversion and your API key";

/** Whether a pixel's query names a field only the keyed call takes: present at all, even empty. */
export function carriesKeyedOnlyField(query: unknown): boolean {
  if (query === null || typeof query !== "object") return false;
  return KEYED_ONLY_PIXEL_FIELDS.some((field) => Object.hasOwn(query, field));
}
