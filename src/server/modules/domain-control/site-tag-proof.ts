import { DOMAIN_MESSAGES, SITE_VERIFICATION_NAME } from "@shared/domain-verification";
import { isSameOrSubdomain } from "@shared/website";
import { load } from "cheerio";
import { OutboundFetchError, type SafeFetchOptions, type SafeFetchResult } from "../../lib/safe-fetch";

export type PageFetch = (url: string, options: SafeFetchOptions) => Promise<SafeFetchResult>;

/** Whether the tag proves the domain, and if not, what stood in the way (null: no tag found). */
export type SiteTagOutcome = { proven: true; problem: null } | { proven: false; problem: string | null };

/** Verification tags sit in <head>; a larger page is cut, not refused. */
const MAX_PAGE_BYTES = 1024 * 1024;

/**
 * Proof (b), CONTRACT §4: `<meta name="buddy-site-verification" content="TOKEN">` on the home
 * page the domain itself serves, fetched through the SSRF-safe client (no private addresses,
 * capped time and size, at most 3 redirects, each judged again).
 * - A redirect is followed only to the domain or its subdomains (`acme.com` → `www.acme.com`):
 *   a page on another host is someone else's, whoever set up the redirect. From https, only to
 *   https.
 * - https first. http only when nothing answers on https at all; a certificate that does not
 *   verify is what a network attacker would show, and falling back to http would let them answer.
 * - Only an HTML page answering 2xx counts, and only a tag its source puts in the <head>, where
 *   pages keep their metadata: a body may show visitors' content (comments, listings), an error
 *   page is no home page, and a text file may be anything uploaded.
 */
export async function checkSiteTag(
  domain: string,
  token: string,
  fetchPage: PageFetch,
  options: { allowPrivate: boolean; timeoutMs?: number },
): Promise<SiteTagOutcome> {
  for (const scheme of ["https", "http"] as const) {
    const home = `${scheme}://${domain}/`;
    let page: SafeFetchResult;
    try {
      page = await fetchPage(home, {
        allowPrivate: options.allowPrivate,
        timeoutMs: options.timeoutMs,
        maxBytes: MAX_PAGE_BYTES,
        truncate: true,
        headers: { accept: "text/html" },
        // Never down from https to http: a network attacker could answer the plain hop.
        followRedirect: (target, from) =>
          isSameOrSubdomain(hostOf(target), domain) &&
          !(from.protocol === "https:" && target.protocol === "http:"),
      });
    } catch (error) {
      // safeFetch fails only with OutboundFetchError; anything else is no proof, and nothing to explain.
      if (!(error instanceof OutboundFetchError)) return { proven: false, problem: null };
      if (scheme === "https" && error.reason === "network") continue;
      return { proven: false, problem: fetchProblem(error, home, domain) };
    }
    return judgePage(page, home, token);
  }
  return { proven: false, problem: null };
}

function judgePage(page: SafeFetchResult, home: string, token: string): SiteTagOutcome {
  if (page.status < 200 || page.status >= 300)
    return { proven: false, problem: DOMAIN_MESSAGES.siteStatus(home, page.status) };
  if (!isHtml(page.headers["content-type"]))
    return { proven: false, problem: DOMAIN_MESSAGES.siteNotHtml(home) };
  const tags = findTags(page.body.toString("utf8"), token);
  if (tags.inHead) return { proven: true, problem: null };
  return { proven: false, problem: tags.elsewhere ? DOMAIN_MESSAGES.tagOutsideHead(home) : null };
}

/** `text/html`, whatever its parameters (charset); a missing header is not HTML. */
function isHtml(contentType: string | undefined): boolean {
  return (contentType ?? "").split(";", 1)[0]?.trim().toLowerCase() === "text/html";
}

const hostOf = (url: URL | string | undefined) => (url ? new URL(url).hostname.replace(/\.$/, "") : "");

function fetchProblem(error: OutboundFetchError, home: string, domain: string): string | null {
  switch (error.reason) {
    case "redirect_refused":
      return isSameOrSubdomain(hostOf(error.url), domain)
        ? DOMAIN_MESSAGES.redirectsToHttp(home, error.url ?? "")
        : DOMAIN_MESSAGES.redirectsAway(home, hostOf(error.url), domain);
    case "tls":
      return DOMAIN_MESSAGES.certificateError(hostOf(error.url) || domain, error.message);
    case "timeout":
      return DOMAIN_MESSAGES.siteTooSlow(home);
    case "too_many_redirects":
      return DOMAIN_MESSAGES.tooManyRedirects(home);
    case "blocked_address":
      return DOMAIN_MESSAGES.siteNotPublic(home);
    case "connection_lost":
      return DOMAIN_MESSAGES.siteBrokeOff(home);
    default:
      // `network` here means http could not connect either: a domain may have no site at all, and
      // the TXT record proves it as well, so "not found" says enough.
      return null;
  }
}

/**
 * The claimant's tags in the page, and whether one is in the <head> as the source writes it. An
 * HTML parser moves a <meta> written between `</head>` and `<body>` into the head and reports it
 * as an 'abandoned head element child': such a tag was not in the head its author wrote.
 */
export function findTags(html: string, token: string): { inHead: boolean; elsewhere: boolean } {
  const abandoned = new Set<number>();
  const $ = load(html, {
    sourceCodeLocationInfo: true,
    onParseError: (error) => {
      if (error.code === "abandoned-head-element-child") abandoned.add(error.startOffset);
    },
  });
  const tags = $(`meta[name="${SITE_VERIFICATION_NAME}"]`)
    .toArray()
    .filter((meta) => ($(meta).attr("content") ?? "").trim() === token);
  const inHead = tags.some((meta) => {
    const writtenAt = meta.sourceCodeLocation?.startOffset;
    return $(meta).parent().is("head") && writtenAt !== undefined && !abandoned.has(writtenAt);
  });
  return { inHead, elsewhere: !inHead && tags.length > 0 };
}
