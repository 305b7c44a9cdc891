import type { Ad, AdTemplate } from "@shared/ads";
import type { Collateral } from "@shared/collateral";
import { renderAdHtml, renderAdJson, renderAdText } from "@shared/snippets";
import { apiRequest } from "@/lib/api-client";

/** SPEC §2 tool detail: the three ways to share a Buddy's ad. */
export const SNIPPET_FORMATS = ["html", "text", "json"] as const;
export type SnippetFormat = (typeof SNIPPET_FORMATS)[number];

/** SPEC §8 notices, per format: 'Text/JSON copied' and 'Failed to copy HTML/text/JSON' spelled out. */
export const COPY_NOTICES: Record<SnippetFormat, { success: string; failure: string }> = {
  html: { success: "HTML copied to clipboard", failure: "Failed to copy HTML" },
  text: { success: "Text copied to clipboard", failure: "Failed to copy text" },
  json: { success: "JSON copied to clipboard", failure: "Failed to copy JSON" },
};
/**
 * Copy link's notices, in the words of SPEC §8's other copy notices (the SPEC has no Copy link);
 * a short-URL failure stops it with that notice, as it stops Text and JSON.
 */
export const LINK_COPY_NOTICES = { success: "Link copied to clipboard", failure: "Failed to copy link" };
export const SHORT_URL_FAILED = "Failed to create short URL";
export const SHORT_URL_INVALID = "Invalid response from short URL service";
/** SPEC §8 warning: HTML still copies, with the full tracked link. */
export const SHORT_URL_FALLBACK = "Failed to generate short URL. Using full URL instead.";

export const SHORT_URL_PATH = "/api/short-url";

/** Why no short link came back; the message is the SPEC §8 notice to show. */
export class ShortUrlError extends Error {
  constructor(message: typeof SHORT_URL_FAILED | typeof SHORT_URL_INVALID, options?: ErrorOptions) {
    super(message, options);
    this.name = "ShortUrlError";
  }
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const { protocol } = new URL(value);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

/**
 * SPEC §7 `POST /api/short-url {longUrl}`: the short form of the caller's tracked link. A failed
 * request (or no tracked link to send) is 'Failed to create short URL'; a 2xx without a usable
 * `shortUrl` is 'Invalid response from short URL service' — an http(s) URL is required, since it
 * goes straight into an `href` and a pasted text.
 */
export async function createShortUrl(longUrl: string | null | undefined): Promise<string> {
  if (!longUrl) throw new ShortUrlError(SHORT_URL_FAILED);
  let body: unknown;
  try {
    body = await apiRequest<unknown>(SHORT_URL_PATH, { method: "POST", body: { longUrl } });
  } catch (error) {
    throw new ShortUrlError(SHORT_URL_FAILED, { cause: error });
  }
  const shortUrl =
    typeof body === "object" && body !== null ? (body as { shortUrl?: unknown }).shortUrl : null;
  if (!isHttpUrl(shortUrl)) throw new ShortUrlError(SHORT_URL_INVALID);
  return shortUrl;
}

/** How a copy gets the short link: `createShortUrl`, or the same through the query cache. */
export type Shortener = (trackedUrl: string | null | undefined) => Promise<string>;

export type AdCompany = Ad["company"];

/** The SPEC §3 ad, as the Ads API gives it: the collateral, the Buddy it advertises, the link. */
export function buildAd(
  collateral: Pick<Collateral, "id" | "name" | "description" | "ctaText" | "imageUrl">,
  company: AdCompany,
  ctaUrl: string,
): Ad {
  return {
    id: collateral.id,
    name: collateral.name,
    description: collateral.description,
    ctaText: collateral.ctaText,
    ctaUrl,
    imageUrl: collateral.imageUrl,
    company: {
      name: company.name,
      website: company.website,
      description: company.description,
      domain: company.domain,
    },
  };
}

/** What goes on the clipboard: always plain text, and for HTML the rich form too. */
export type SnippetContent = { text: string; html?: string };

/**
 * The shared renderers (the Ads API's own). For HTML the plain-text flavour is the markup itself:
 * rich editors (e-mail composers) take text/html and show the ad, code editors and HTML fields
 * take text/plain and get the source to paste into a template.
 */
export function renderSnippet(
  format: SnippetFormat,
  ad: Ad,
  template: AdTemplate = "simple",
): SnippetContent {
  if (format === "html") {
    const html = renderAdHtml(ad, template);
    return { text: html, html };
  }
  return { text: format === "text" ? renderAdText(ad) : renderAdJson(ad) };
}

/**
 * Puts content that is still being prepared on the clipboard. `navigator.clipboard.write` is
 * called at once, with promised blobs, so the click's user activation is still live when the
 * browser checks it (Safari refuses a write made after an awaited request). Without
 * ClipboardItem, or when the rich write is refused, it falls back to `writeText`.
 */
export async function writeClipboard(content: Promise<SnippetContent>, rich: boolean): Promise<void> {
  const clipboard = typeof navigator === "undefined" ? undefined : navigator.clipboard;
  if (!clipboard) throw new Error("Clipboard unavailable");
  if (typeof ClipboardItem !== "undefined" && typeof clipboard.write === "function") {
    const blob = (type: "text/plain" | "text/html", pick: (c: SnippetContent) => string) => {
      const promised = content.then((c) => new Blob([pick(c)], { type }));
      // Handled here too: a failed preparation is reported by the caller, not as unhandled.
      promised.catch(() => {});
      return promised;
    };
    const items: Record<string, Promise<Blob>> = { "text/plain": blob("text/plain", (c) => c.text) };
    if (rich) items["text/html"] = blob("text/html", (c) => c.html ?? c.text);
    try {
      await clipboard.write([new ClipboardItem(items)]);
      return;
    } catch (error) {
      // Nothing to fall back to when the content itself failed.
      await content;
      console.warn("Rich clipboard write refused; copying plain text", error);
    }
  }
  await clipboard.writeText((await content).text);
}

export type CopyNotifier = {
  success: (message: string) => void;
  warning: (message: string) => void;
  error: (message: string) => void;
};

export type CopySnippetRequest = {
  format: SnippetFormat;
  collateral: Pick<
    Collateral,
    "id" | "name" | "description" | "ctaText" | "ctaUrl" | "imageUrl" | "trackedUrl"
  >;
  company: AdCompany;
  template?: AdTemplate;
  /** Defaults to asking the server; the tool detail passes its cached short links. */
  shorten?: Shortener;
};

type Notices = { success: string; failure: string };

/**
 * Reports a copy whose content was prepared while the clipboard write waited for it: a short-URL
 * failure with its own notice, anything else (a refused clipboard) with the copy's failure.
 * Resolves true when something was copied.
 */
async function reportCopy(
  content: Promise<SnippetContent>,
  rich: boolean,
  notices: Notices,
  notify: CopyNotifier,
): Promise<boolean> {
  const [prepared, written] = await Promise.allSettled([content, writeClipboard(content, rich)]);
  if (prepared.status === "rejected") {
    const reason = prepared.reason;
    notify.error(reason instanceof ShortUrlError ? reason.message : notices.failure);
    if (!(reason instanceof ShortUrlError)) console.error(reason);
    return false;
  }
  if (written.status === "rejected") {
    console.error(notices.failure, written.reason);
    notify.error(notices.failure);
    return false;
  }
  notify.success(notices.success);
  return true;
}

/**
 * SPEC §2/§7/§8 Copy HTML / Text / JSON: shorten the caller's tracked link, build the ad, render
 * it with the shared renderer and copy it. If shortening fails, HTML warns and uses the full
 * tracked link; text and JSON stop with the short-URL notice and copy nothing. A refused
 * clipboard is 'Failed to copy …'. Resolves true when something was copied.
 */
export async function copySnippet(request: CopySnippetRequest, notify: CopyNotifier): Promise<boolean> {
  const { format, collateral, company, template = "simple", shorten = createShortUrl } = request;
  const content = (async () => {
    let ctaUrl: string;
    try {
      ctaUrl = await shorten(collateral.trackedUrl);
    } catch (error) {
      if (format !== "html") throw error;
      notify.warning(SHORT_URL_FALLBACK);
      // Without a tracked link (not expected on a Buddy's item) the ad still points somewhere real.
      ctaUrl = collateral.trackedUrl || collateral.ctaUrl;
    }
    return renderSnippet(format, buildAd(collateral, company, ctaUrl), template);
  })();
  return reportCopy(content, format === "html", COPY_NOTICES[format], notify);
}

/**
 * Copy link: the ad's short tracked link alone, the very link the snippets carry (the same
 * `/api/short-url` answer, so the same code), ready for a chat, a post or a mail of one's own.
 */
export async function copyLink(
  request: { trackedUrl: string | null | undefined; shorten?: Shortener },
  notify: CopyNotifier,
): Promise<boolean> {
  const { trackedUrl, shorten = createShortUrl } = request;
  const content = shorten(trackedUrl).then((text): SnippetContent => ({ text }));
  return reportCopy(content, false, LINK_COPY_NOTICES, notify);
}

/** The HTML preview's document: the snippet as it renders in a mail, links pointing at the real page. */
export function previewDocument(html: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><base target="_blank"><style>html,body{margin:0;padding:0;background:#ffffff}body{padding:12px}</style></head><body>${html}</body></html>`;
}
