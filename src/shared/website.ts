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
