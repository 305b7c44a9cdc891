/** A 1×1 transparent GIF: the pixel's answer. */
export const PIXEL_GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/** The pixel's own headers, beside the security headers: other sites embed it, and each hit counts. */
export const PIXEL_HEADERS = {
  "cache-control": "no-store",
  "cross-origin-resource-policy": "cross-origin",
  "content-type": "image/gif",
} as const;
