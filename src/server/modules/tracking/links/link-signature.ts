import { hmac, safeEqual } from "../../../lib/tokens";

export type TrackedLink = {
  relationshipId: string;
  collateralId: string;
  sourceOrgId: string;
  targetOrgId: string;
  url: string;
};

const FIELDS = ["relationshipId", "collateralId", "sourceOrgId", "targetOrgId", "url"] as const;
const ID_FIELDS = ["relationshipId", "collateralId", "sourceOrgId", "targetOrgId"] as const;
/** Ids as the database writes them: the only spelling a link signed here carries. */
export const STORED_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const REDIRECT_PATH = "/api/marketing/redirect";

/** The signed text: every parameter, in a fixed order, length-prefixed so none can bleed into another. */
function canonical(link: TrackedLink): string {
  return FIELDS.map((field) => `${link[field].length}:${link[field]}`).join("|");
}

/** CONTRACT §5: PUBLIC_URL/api/marketing/redirect?…&sig=HMAC(APP_SECRET, parameters). */
export function signTrackedLink(publicUrl: string, secret: string, link: TrackedLink): string {
  const url = new URL(`${publicUrl}${REDIRECT_PATH}`);
  for (const field of FIELDS) url.searchParams.set(field, link[field]);
  url.searchParams.set("sig", hmac(secret, canonical(link)));
  return url.toString();
}

/**
 * The link's parameters when the signature matches them, else null (no forged clicks). Its ids
 * are then UUIDs.
 */
export function verifyTrackedLink(secret: string, query: Record<string, unknown>): TrackedLink | null {
  const values: Partial<TrackedLink> = {};
  for (const field of FIELDS) {
    const value = query[field];
    if (typeof value !== "string" || value.length === 0 || value.length > 4096) return null;
    values[field] = value;
  }
  const sig = query.sig;
  if (typeof sig !== "string") return null;
  const link = values as TrackedLink;
  for (const field of ID_FIELDS) if (!STORED_UUID.test(link[field])) return null;
  return safeEqual(sig, hmac(secret, canonical(link))) ? link : null;
}

/**
 * The target with bclickid added; its own query (UTM and the rest) is kept. Without a click id
 * (a hit that may record no lead) the target never carries one, not even one written into it.
 */
export function landingUrl(url: string, clickId: string | null): string {
  const target = new URL(url);
  if (clickId === null) target.searchParams.delete("bclickid");
  else target.searchParams.set("bclickid", clickId);
  return target.toString();
}
