import { z } from "zod";
import { websiteSchema } from "./onboarding";
import { text } from "./text";

export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const LOGO_TOO_LARGE = "Logo must be less than 2MB";
export const LOGO_TYPES = ["image/jpeg", "image/png"] as const;
export const ORGANIZATION_SEARCH_MIN = 3;

/** SPEC §3 organization. `logoUrl` is the website-derived path, null when no logo was uploaded. */
export const organizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  website: z.string(),
  domain: z.string(),
  industry: z.string().nullable(),
  size: z.number().int().nullable(),
  description: z.string().nullable(),
  category: z.string().nullable(),
  categoryName: z.string().nullable(),
  isPlatformUser: z.boolean(),
  logoUrl: z.string().nullable(),
  /** Whether someone proved control of `domain` (CONTRACT §4); until then no ads, badge or approvals. */
  domainVerified: z.boolean(),
  /**
   * A website change waiting for an admin to prove its domain, with the name given with it; the
   * organization keeps `domain` and `name` until then. Only in the organization's own view.
   */
  pendingDomain: z.string().nullable().optional(),
  pendingName: z.string().nullable().optional(),
});
export type Organization = z.infer<typeof organizationSchema>;

/** Settings → organization form (SPEC §2, §5): name and website required, size an integer. */
export const updateOrganizationSchema = z.object({
  name: text("Organization name", { error: "Organization name is required" })
    .min(1, { error: "Organization name is required" })
    .max(100, { error: "Organization name must be at most 100 characters" }),
  website: websiteSchema,
  description: text("Description", { multiline: true })
    .max(1000, { error: "Description must be at most 1000 characters" })
    .nullish(),
  industry: text("Industry").max(100, { error: "Industry must be at most 100 characters" }).nullish(),
  size: z
    .number({ error: "Size must be a whole number" })
    .int({ error: "Size must be a whole number" })
    .min(1, { error: "Size must be at least 1" })
    .max(10_000_000, { error: "Size is too large" })
    .nullish(),
});
export type UpdateOrganizationInput = z.infer<typeof updateOrganizationSchema>;

/**
 * Settings → Install: what the install scripts are pre-configured with. CONTRACT §1/§5: they load
 * from PUBLIC_URL, which only the server knows (the page may be opened at another address).
 */
export const installSettingsSchema = z.object({ organizationId: z.string(), publicUrl: z.string() });
export type InstallSettings = z.infer<typeof installSettingsSchema>;

export const organizationSearchQuerySchema = z.object({
  query: text("Search", { error: "Enter at least 3 characters to search" })
    .min(ORGANIZATION_SEARCH_MIN, { error: "Enter at least 3 characters to search" })
    .max(100, { error: "Search is too long" }),
  type: z.enum(["competitor", "complement"]).optional(),
});

export const organizationSearchResultSchema = z.object({
  id: z.string(),
  name: z.string(),
  website: z.string(),
  domain: z.string(),
  category: z.string().nullable(),
  isPlatformUser: z.boolean(),
});
export type OrganizationSearchResult = z.infer<typeof organizationSearchResultSchema>;

export const metadataQuerySchema = z.object({ domain: websiteSchema });
export const metadataResponseSchema = z.object({ siteName: z.string(), description: z.string() });
export type SiteMetadata = z.infer<typeof metadataResponseSchema>;

// Kept apart from the schemas above: the web shows logos on screens that load no zod.
export { logoPath } from "./logo-path";
