/**
 * SPEC §5 (onboarding website) and CONTRACT §4: the one domain normalisation.
 * Trimmed, lower-cased, leading http(s):// and www. removed, cut at the first slash
 * (and at a query, fragment or port), so `https://www.Acme.com/` and `acme.com` meet.
 */
export function normalizeWebsite(input: string): string {
  let value = input.trim().toLowerCase();
  value = value.replace(/^https?:\/\//, "");
  value = value.replace(/^www\./, "");
  value = value.split(/[/?#]/, 1)[0] ?? "";
  value = value.replace(/:\d+$/, "");
  return value.replace(/\.$/, "");
}

/** Must contain a dot and no space (SPEC §5 'Must be a valid domain'). */
export function isValidDomain(domain: string): boolean {
  return (
    domain.includes(".") && !/\s/.test(domain) && /^[a-z0-9.-]+$/.test(domain) && !domain.startsWith(".")
  );
}

/** `host` is `domain` itself or one of its subdomains (`mail.acme.com` for `acme.com`). */
export function isSameOrSubdomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * An absolute URL whose host is `domain` or one of its subdomains; anything unparsable is not.
 * CONTRACT §5: an ad's call-to-action and image are on its company's own domain.
 */
export function urlIsOnDomain(url: string, domain: string): boolean {
  try {
    return isSameOrSubdomain(new URL(url).hostname.toLowerCase().replace(/\.$/, ""), domain);
  } catch {
    return false;
  }
}
