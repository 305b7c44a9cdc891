import { AD_TEMPLATE_WIDTH, type Ad, type AdTemplate } from "./ads";

/**
 * The one renderer of ads, used by the Ads API and by the copy buttons, so a pasted snippet and
 * a served one are the same. HTML is e-mail-safe: tables and inline styles only, every user text
 * escaped, only http(s) URLs in attributes.
 */
const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

function safeUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}

const FONT = "font-family:Arial,Helvetica,sans-serif";

function button(ad: Ad, href: string) {
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr><td style="border-radius:6px;background:#4f46e5"><a href="${escapeHtml(href)}" target="_blank" style="display:inline-block;padding:10px 18px;${FONT};font-size:14px;font-weight:bold;color:#ffffff;text-decoration:none">${escapeHtml(ad.ctaText)}</a></td></tr></table>`;
}

function image(ad: Ad, width: number, href: string) {
  const src = safeUrl(ad.imageUrl);
  if (!src) return "";
  return `<a href="${escapeHtml(href)}" target="_blank"><img src="${escapeHtml(src)}" alt="${escapeHtml(ad.name)}" width="${width}" style="display:block;width:100%;max-width:${width}px;height:auto;border:0" /></a>`;
}

export function renderAdHtml(ad: Ad, template: AdTemplate = "simple"): string {
  const width = AD_TEMPLATE_WIDTH[template];
  const href = safeUrl(ad.ctaUrl) ?? "#";
  const title = `<p style="margin:0 0 6px;${FONT};font-size:18px;font-weight:bold;color:#0f172a">${escapeHtml(ad.name)}</p>`;
  const text = `<p style="margin:0 0 14px;${FONT};font-size:14px;line-height:20px;color:#334155">${escapeHtml(ad.description)}</p>`;
  const outer = (inner: string, style: string) =>
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:${width}px;${style}"><tr><td style="padding:16px">${inner}</td></tr></table>`;
  if (template === "banner") {
    const src = safeUrl(ad.imageUrl);
    const imageCell = src
      ? `<td width="200" style="padding:16px;vertical-align:middle"><img src="${escapeHtml(src)}" alt="${escapeHtml(ad.name)}" width="168" style="display:block;width:168px;height:auto;border:0" /></td>`
      : "";
    return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:${width}px;background:#eef2ff;border-radius:8px"><tr>${imageCell}<td style="padding:16px;vertical-align:middle">${title}${text}${button(ad, href)}</td></tr></table>`;
  }
  if (template === "card") {
    return outer(
      `${image(ad, width - 32, href)}<div style="height:12px"></div>${title}${text}${button(ad, href)}`,
      "border:1px solid #e2e8f0;border-radius:8px;background:#ffffff",
    );
  }
  return outer(`${title}${text}${button(ad, href)}`, "");
}

export function renderAdText(ad: Ad): string {
  return `${ad.name}\n${ad.description}\n${ad.ctaText}: ${ad.ctaUrl}`;
}

export function renderAdJson(ad: Ad): string {
  return JSON.stringify(ad, null, 2);
}

export function renderAds(ads: Ad[], format: "html" | "text", template: AdTemplate = "simple"): string {
  return format === "html"
    ? ads.map((ad) => renderAdHtml(ad, template)).join('\n<div style="height:16px"></div>\n')
    : ads.map(renderAdText).join("\n\n---\n\n");
}
