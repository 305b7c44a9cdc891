import { parse } from "tldts";

/**
 * CONTRACT §11: a population is a set of registrable domains (`https://www.Acme.co.uk/x` →
 * `acme.co.uk`). Both sides must write a company the same way, or the same account never matches:
 * lower case, IDNA (punycode) form, the registrable domain by the Public Suffix List, private
 * suffixes included so that two companies on `github.io` stay two.
 */
export function registrableDomain(input: string): string | null {
  let value = input.trim().replace(/^mailto:/i, "");
  const at = value.lastIndexOf("@");
  if (at >= 0 && !value.includes("/")) value = value.slice(at + 1);
  if (!value.includes(".")) return null;
  let hostname: string;
  try {
    hostname = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`).hostname;
  } catch {
    return null;
  }
  const parsed = parse(hostname, { allowPrivateDomains: true });
  // A suffix the list does not know (`acme.invalidtld`) is a typo, not a company.
  if (!parsed.isIcann && !parsed.isPrivate) return null;
  return parsed.domain && parsed.domain.length <= 253 ? parsed.domain : null;
}

export type ParsedDomains = {
  /** Distinct registrable domains, sorted. */
  domains: string[];
  /** Entries that looked like an address but are not one (`acme`, `localhost.`, an IP address). */
  skipped: number;
};

// A CSV's cells, a pasted column or a line of addresses: whatever separates them.
const SEPARATORS = /[\s,;|"'`<>()[\]{}]+/;

/** Every domain in a CSV or a pasted list, normalised and deduplicated; header cells are ignored. */
export function parseDomainList(text: string): ParsedDomains {
  const domains = new Set<string>();
  let skipped = 0;
  for (const token of text.split(SEPARATORS)) {
    if (!token) continue;
    const domain = registrableDomain(token);
    if (domain) domains.add(domain);
    else if (/[.@]/.test(token) && !/^[\d.]+$/.test(token.replace(/[$€£%]/g, ""))) skipped += 1;
  }
  return { domains: [...domains].sort(), skipped };
}
