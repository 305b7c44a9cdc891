import { CONVERSION_TYPES, type ConversionType } from "@shared/tracking";
import { parse } from "fast-querystring";
import { AppError } from "../../errors";
import {
  answerFailure,
  clientAddress,
  type FastPath,
  type FastPathDeps,
  headerTemplate,
} from "../../fast-path";
import type { ConversionInput, ConversionRecorder } from "./conversions.service";

/** A 1×1 transparent GIF: the pixel's answer. */
export const PIXEL_GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
/** The pixel's own headers, beside the security headers: other sites embed it, and each hit counts. */
export const PIXEL_HEADERS = {
  "cache-control": "no-store",
  "cross-origin-resource-policy": "cross-origin",
  "content-type": "image/gif",
} as const;

/** Click ids as click-id.ts makes them (base64url); anything else is the route's to refuse. */
const PIXEL_PATH = /^\/api\/marketing\/conversion\/([A-Za-z0-9_-]{1,64})\?(.*)$/;
/** The largest `value` a pixel may carry (the route's schema says the same). */
export const PIXEL_MAX_VALUE = 1e12;

/**
 * The pixel's query as the route reads it (Fastify parses queries with fast-querystring too),
 * when it is valid: each of type, org and value at most once, type one of the conversion types,
 * org up to 100 characters, value a number from 0 to PIXEL_MAX_VALUE (coerced as the schema
 * does). Null for anything the route would refuse.
 */
export function validPixelQuery(
  clickId: string,
  query: string,
): (Omit<ConversionInput, "type"> & { type: ConversionType }) | null {
  const { type, org, value } = parse(query) as Record<string, string | string[] | undefined>;
  const conversionType = CONVERSION_TYPES.find((t) => t === type);
  if (!conversionType) return null;
  if (Array.isArray(org) || (org !== undefined && org.length > 100)) return null;
  let amount: number | undefined;
  if (value !== undefined) {
    if (Array.isArray(value)) return null;
    amount = Number(value);
    if (!Number.isFinite(amount) || amount < 0 || amount > PIXEL_MAX_VALUE) return null;
  }
  return { organizationId: org ?? "", clickId, type: conversionType, value: amount };
}

/**
 * Every lead of every partner's thank-you page is a pixel hit. A valid GET of
 * `/api/marketing/conversion/<click id>?type=…` is answered here (fast-path.ts): proven, journaled
 * before the GIF and remembered exactly as the route does it (conversions.service.ts), with the
 * route's headers. A query the route would refuse, or a click id it does not prove, goes to the
 * route, which answers 400 or 404 with its message.
 */
export function createPixelFastPath(deps: FastPathDeps & { leads: ConversionRecorder }): FastPath {
  const headers = headerTemplate(deps.headers, {
    ...PIXEL_HEADERS,
    "content-length": String(PIXEL_GIF.length),
  });
  return (request, response, fallback) => {
    const url = request.url;
    if (request.method !== "GET" || !url?.startsWith("/api/marketing/conversion/")) return false;
    const match = PIXEL_PATH.exec(url);
    const input = match ? validPixelQuery(match[1] as string, match[2] as string) : null;
    if (!input || deps.closing()) return false;
    deps.leads.recordPixel(input, clientAddress(deps, request)).then(
      () => {
        response.writeHead(200, headers());
        response.end(PIXEL_GIF);
      },
      (error: unknown) => {
        // Not proven (404) or over the client's allowance (429): the route says so in its own words
        // (charging a client already over its allowance once more, which changes nothing).
        if (error instanceof AppError) return fallback();
        answerFailure(deps, response, error, url);
      },
    );
    return true;
  };
}
