import { LOGO_MAX_BYTES, LOGO_TOO_LARGE, LOGO_TYPES } from "@shared/organizations";

export const LOGO_WRONG_TYPE = "Logo must be a JPEG or PNG image";

/** SPEC §5: JPEG or PNG up to 2 MB, checked before uploading. Returns the problem, or null. */
export function checkLogoFile(file: File): string | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return LOGO_WRONG_TYPE;
  if (file.size > LOGO_MAX_BYTES) return LOGO_TOO_LARGE;
  return null;
}
