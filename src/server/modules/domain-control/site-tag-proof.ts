import { SITE_VERIFICATION_NAME } from "@shared/domain-verification";
import { load } from "cheerio";
import { OutboundFetchError, type SafeFetchOptions, type SafeFetchResult } from "../../lib/safe-fetch";

export type PageFetch = (url: string, options: SafeFetchOptions) => Promise<SafeFetchResult>;

/** Verification tags sit in <head>; a larger page is cut, not refused. */
const MAX_PAGE_BYTES = 1024 * 1024;

/**
 * Proof (b), CONTRACT §4: `<meta name="buddy-site-verification" content="TOKEN">` on the home
 * page, fetched through the SSRF-safe client (no private addresses, capped time and size, at most
 * 3 redirects, each judged again). A redirect is followed because the domain's owner set it up
 * (`acme.com` → `www.acme.com`); only the home page without a query is ever asked for, so nobody
 * else can steer where it leads. https first; http only when https cannot connect at all.
 * Only a home page that answers 2xx counts, and only a tag in its <head>, where pages keep their
 * metadata: a body may show visitors' content (comments, listings), and an error page is no
 * home page at all.
 */
export async function siteTagProvesDomain(
  domain: string,
  token: string,
  fetchPage: PageFetch,
  options: { allowPrivate: boolean; timeoutMs?: number },
): Promise<boolean> {
  for (const scheme of ["https", "http"] as const) {
    let page: SafeFetchResult;
    try {
      page = await fetchPage(`${scheme}://${domain}/`, {
        allowPrivate: options.allowPrivate,
        timeoutMs: options.timeoutMs,
        maxBytes: MAX_PAGE_BYTES,
        truncate: true,
        headers: { accept: "text/html" },
      });
    } catch (error) {
      if (error instanceof OutboundFetchError && error.reason === "network") continue;
      return false;
    }
    return page.status >= 200 && page.status < 300 && pageHasTag(page.body.toString("utf8"), token);
  }
  return false;
}

export function pageHasTag(html: string, token: string): boolean {
  const $ = load(html);
  return $(`head > meta[name="${SITE_VERIFICATION_NAME}"]`)
    .toArray()
    .some((meta) => ($(meta).attr("content") ?? "").trim() === token);
}
