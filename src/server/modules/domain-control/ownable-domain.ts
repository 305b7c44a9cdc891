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
