/**
 * SPEC §2: a card shows its call-to-action URL without protocol or query, so the UTM parameters
 * the generator appends (SPEC §5) do not crowd it: `https://acme.com/signup?utm_…` → `acme.com/signup`.
 */
export function displayCtaUrl(url: string): string {
  try {
    const { host, pathname } = new URL(url);
    return `${host}${pathname}`.replace(/\/+$/, "");
  } catch {
    return (
      url
        .trim()
        .replace(/^[a-z][a-z\d+.-]*:\/\//i, "")
        .split(/[?#]/, 1)[0] ?? ""
    );
  }
}

/**
 * SPEC §5: the image URL is normalised to a full URL on blur. People paste `example.com/a.png` or
 * a protocol-relative `//cdn…`; both become https. Anything with a scheme, and a path with no
 * host to put before it, is left for the schema to judge; an empty value stays empty (optional).
 */
export function normalizeImageUrl(input: string): string {
  const value = input.trim();
  if (value.startsWith("//")) return `https:${value}`;
  if (value === "" || value.startsWith("/") || /^[a-z][a-z\d+.-]*:\/\//i.test(value)) return value;
  return `https://${value}`;
}

/** The URL to preview, or null while the value is not (yet) a usable http(s) address. */
export function previewImageSrc(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    const usable = (url.protocol === "https:" || url.protocol === "http:") && url.hostname.includes(".");
    return usable ? url.href : null;
  } catch {
    return null;
  }
}
