/** The logo path is derived from the website (SPEC §2): /api/logos/{domain}.jpg. */
export function logoPath(domain: string, version?: number | string): string {
  return `/api/logos/${encodeURIComponent(domain)}.jpg${version ? `?v=${version}` : ""}`;
}
