import { parse } from "tldts";

/**
 * A domain someone can own: a registrable name or below it, never a public suffix (`co.uk`,
 * `github.io`) nor an address. Proof of a suffix would let one site owner claim every company
 * under it.
 */
export function isOwnableDomain(domain: string): boolean {
  const parsed = parse(domain, { allowPrivateDomains: true });
  return !parsed.isIp && parsed.domain !== null && parsed.hostname === domain;
}

/** `host` is `domain` itself or one of its subdomains (`mail.acme.com` for `acme.com`). */
export function isSameOrSubdomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** An absolute URL whose host is `domain` or one of its subdomains; anything unparsable is not. */
export function urlIsOnDomain(url: string, domain: string): boolean {
  try {
    return isSameOrSubdomain(new URL(url).hostname.toLowerCase().replace(/\.$/, ""), domain);
  } catch {
    return false;
  }
}
