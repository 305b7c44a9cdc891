import { DAY_MS } from "@shared/days";
import { isValidDomain, normalizeWebsite } from "@shared/website";
import { loadBuffer } from "cheerio";
import { LRUCache } from "lru-cache";
import { OutboundFetchError, type SafeFetchOptions, type SafeFetchResult, safeFetch } from "./safe-fetch";

/**
 * SPEC §3/§7 GET /api/metadata: a site's name and description for onboarding autofill (§5).
 *
 * Outcome, so the route can answer without guessing:
 * - resolves `{ siteName, description }` when the site answers 2xx; either may be "" (no tags, or
 *   not an HTML page — only text/html and XHTML are parsed);
 * - rejects with OutboundFetchError otherwise: `invalid_url` (not a valid domain), `blocked_address`
 *   (private/loopback target), `network`, `timeout`, `too_many_redirects`, `http_status` (non-2xx:
 *   error and bot-challenge pages carry titles like "Just a moment…" that must not become a name).
 * The web client only logs metadata failures (SPEC §8), so the route can map all of these to one
 * quiet answer.
 */

/** `image` (og:image, made absolute against the page) is for collateral generation, not the API. */
export type SiteMetadata = { siteName: string; description: string; image: string };

export type SiteMetadataService = {
  getMetadata(domain: string): Promise<SiteMetadata>;
};

export type SiteMetadataOptions = {
  /** OUTBOUND_ALLOW_PRIVATE (CONTRACT §1). Also keeps a port given in the input: fixture sites use random ports. */
  allowPrivate: boolean;
  /** How long a good answer is kept. Default 24 h. */
  ttlMs?: number;
  /** How long a failure is kept, so a broken site is not hit on every keystroke. Default 5 min. */
  failureTtlMs?: number;
  /** Tried in order; the next one only after a connection failure. Default https, then http. */
  schemes?: readonly ("https" | "http")[];
  /** Default safeFetch; tests wrap it to inject a name table. */
  fetch?: (url: string, options: SafeFetchOptions) => Promise<SafeFetchResult>;
  /** Per attempt (each scheme). Default 5 s. */
  timeoutMs?: number;
  maxEntries?: number;
};

const FAILURE_TTL_MS = 5 * 60 * 1000;
/** Generous for a name or a description, small enough for a form field and the cache. */
export const METADATA_TEXT_MAX = 300;
/** Titles and meta tags sit in <head>; a truncated page still has them. */
const MAX_PAGE_BYTES = 1024 * 1024;

type Target = { host: string; port: string };
type Entry = { ok: true; value: SiteMetadata } | { ok: false; error: unknown };

export function createSiteMetadataService(options: SiteMetadataOptions): SiteMetadataService {
  const fetchPage = options.fetch ?? safeFetch;
  const schemes = options.schemes ?? ["https", "http"];
  const failureTtlMs = options.failureTtlMs ?? FAILURE_TTL_MS;

  async function load({ host, port }: Target): Promise<SiteMetadata> {
    let lastError: unknown = new OutboundFetchError("invalid_url", "No scheme to try");
    for (const scheme of schemes) {
      try {
        const response = await fetchPage(`${scheme}://${host}${port ? `:${port}` : ""}/`, {
          allowPrivate: options.allowPrivate,
          timeoutMs: options.timeoutMs,
          maxBytes: MAX_PAGE_BYTES,
          truncate: true,
        });
        return parseResponse(response);
      } catch (error) {
        lastError = error;
        // Only a failed connection (no TLS on 443, nothing listening) suggests the other scheme may
        // work; a block, timeout or HTTP error would just repeat, slower.
        if (!(error instanceof OutboundFetchError && error.reason === "network")) throw error;
      }
    }
    throw lastError;
  }

  // fetchMethod gives one in-flight fetch per key (concurrent callers share it); failures are
  // stored as values with a short ttl instead of rejections, which lru-cache would not keep.
  const cache = new LRUCache<string, Entry, Target>({
    max: options.maxEntries ?? 1000,
    ttl: options.ttlMs ?? DAY_MS,
    fetchMethod: async (_key, _stale, { options: entryOptions, context }) => {
      try {
        return { ok: true, value: await load(context) };
      } catch (error) {
        entryOptions.ttl = failureTtlMs;
        return { ok: false, error };
      }
    },
  });

  return {
    async getMetadata(input) {
      const target = toTarget(input, options.allowPrivate);
      const key = target.port ? `${target.host}:${target.port}` : target.host;
      const entry = await cache.fetch(key, { context: target });
      if (!entry) throw new OutboundFetchError("network", "Metadata fetch was abandoned");
      if (!entry.ok) throw entry.error;
      return entry.value;
    },
  };
}

/** normalizeWebsite is the one domain rule (CONTRACT §4); it drops ports, which only tests need. */
function toTarget(input: string, allowPrivate: boolean): Target {
  const host = normalizeWebsite(input);
  if (!isValidDomain(host)) throw new OutboundFetchError("invalid_url", "Must be a valid domain");
  const authority =
    input
      .trim()
      .replace(/^https?:\/\//i, "")
      .split(/[/?#]/, 1)[0] ?? "";
  const port = allowPrivate ? (/:(\d{1,5})$/.exec(authority)?.[1] ?? "") : "";
  return { host, port };
}

function parseResponse(response: SafeFetchResult): SiteMetadata {
  if (response.status < 200 || response.status > 299) {
    throw new OutboundFetchError("http_status", `The site answered ${response.status}`, {
      url: response.url,
    });
  }
  const contentType = response.headers["content-type"] ?? "";
  if (!/^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i.test(contentType)) {
    return { siteName: "", description: "", image: "" };
  }
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  // loadBuffer sniffs BOM, the header charset and <meta charset>, so non-UTF-8 pages decode right.
  const $ = loadBuffer(response.body, { encoding: { transportLayerEncodingLabel: charset } });
  const first = (...candidates: (string | undefined)[]) =>
    candidates.map((value) => clean(value ?? "")).find((value) => value !== "") ?? "";
  const meta = (attribute: "name" | "property", value: string) =>
    $(`meta[${attribute}="${value}" i]`).first().attr("content");

  return {
    siteName: first(
      meta("property", "og:site_name"),
      meta("name", "og:site_name"),
      $("head > title").first().text(),
    ),
    description: first(
      meta("name", "description"),
      meta("property", "og:description"),
      meta("name", "og:description"),
    ),
    image: absoluteHttpUrl(first(meta("property", "og:image"), meta("name", "twitter:image")), response.url),
  };
}

/** SPEC §5: a relative image path is prefixed with the site's origin; only http(s) is kept. */
function absoluteHttpUrl(value: string, base: string): string {
  if (!value) return "";
  try {
    const url = new URL(value, base);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : "";
  } catch {
    return "";
  }
}

/** Entities are already decoded by the parser; collapse whitespace and cap by code point. */
function clean(text: string): string {
  const collapsed = text.replace(/\s+/g, " ").trim();
  const points = Array.from(collapsed);
  return points.length > METADATA_TEXT_MAX
    ? points.slice(0, METADATA_TEXT_MAX).join("").trimEnd()
    : collapsed;
}
