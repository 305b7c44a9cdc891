import { z } from "zod";
import { text } from "./text";

/** SPEC §2, §5, §9: collateral limits and order. */
export const COLLATERAL_TITLE_MAX = 25;
export const COLLATERAL_DESCRIPTION_MAX = 100;
export const COLLATERAL_CTA_TEXT_MAX = 25;
export const COLLATERAL_URL_MAX = 2048;

export const COLLATERAL_TYPES = ["email_cta", "in_app_message", "other"] as const;
export const COLLATERAL_STATUSES = ["draft", "active", "archived"] as const;
/** SPEC §2: the grid sorts active, then draft, then archived. */
export const COLLATERAL_STATUS_ORDER: Record<CollateralStatus, number> = { active: 0, draft: 1, archived: 2 };

export const collateralTypeSchema = z.enum(COLLATERAL_TYPES, {
  error: "Type must be email_cta, in_app_message or other",
});
export const collateralStatusSchema = z.enum(COLLATERAL_STATUSES, {
  error: "Status must be draft, active or archived",
});
export type CollateralType = z.infer<typeof collateralTypeSchema>;
export type CollateralStatus = z.infer<typeof collateralStatusSchema>;

const parseHttpUrl = (value: string): URL | undefined => {
  try {
    const url = new URL(value);
    if ((url.protocol === "https:" || url.protocol === "http:") && url.hostname.includes(".")) return url;
  } catch {}
  return undefined;
};

/**
 * Stored as the WHATWG URL parser writes it (host lower-cased, spaces escaped), the form every
 * browser and the redirect read it in, never as typed. An overwrite, not a transform: a transform
 * is a pipe, and a failed pipe hides the field's own message inside the imageUrl union.
 */
const httpUrl = (label: string, message: string) =>
  text(label, { error: message })
    .max(COLLATERAL_URL_MAX, { error: message })
    .refine((value) => parseHttpUrl(value) !== undefined, { error: message })
    .overwrite((value) => parseHttpUrl(value)?.href ?? value);

export const collateralFieldsSchema = z.object({
  type: collateralTypeSchema.default("email_cta"),
  name: text("Title", { error: "Title is required" })
    .min(1, { error: "Title is required" })
    .max(COLLATERAL_TITLE_MAX, { error: `Title must be at most ${COLLATERAL_TITLE_MAX} characters` }),
  description: text("Description", { error: "Description is required", multiline: true })
    .min(1, { error: "Description is required" })
    .max(COLLATERAL_DESCRIPTION_MAX, {
      error: `Description must be at most ${COLLATERAL_DESCRIPTION_MAX} characters`,
    }),
  ctaText: text("Call to action text", { error: "Call to action text is required" })
    .min(1, { error: "Call to action text is required" })
    .max(COLLATERAL_CTA_TEXT_MAX, {
      error: `Call to action text must be at most ${COLLATERAL_CTA_TEXT_MAX} characters`,
    }),
  ctaUrl: httpUrl("Call to action URL", "Call to action URL must be a valid http(s) URL"),
  imageUrl: z.union([z.literal(""), httpUrl("Image URL", "Image URL must be a valid http(s) URL")]).nullish(),
  status: collateralStatusSchema.default("draft"),
});

/** SPEC §3: new collateral defaults to type email_cta and status draft. */
export const createCollateralSchema = collateralFieldsSchema;
export type CreateCollateralInput = z.input<typeof createCollateralSchema>;

/** SPEC §7: PATCH takes the full form or only {status}. */
export const updateCollateralSchema = z.union([
  collateralFieldsSchema,
  z.object({ status: collateralStatusSchema }).strict(),
]);
export type UpdateCollateralInput = z.infer<typeof updateCollateralSchema>;

export const collateralSchema = z.object({
  id: z.string(),
  type: collateralTypeSchema,
  name: z.string(),
  description: z.string(),
  ctaText: z.string(),
  ctaUrl: z.string(),
  imageUrl: z.string().nullable(),
  status: collateralStatusSchema,
  organizationId: z.string(),
  /** Only the organization that created it may edit it (CONTRACT §5). */
  createdByOrganizationId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** On a Buddy's collateral: the caller's signed tracked link to its call to action (CONTRACT §5). */
  trackedUrl: z.string().nullable().optional(),
});
export type Collateral = z.infer<typeof collateralSchema>;

/** SPEC §3 generated collateral response: a collateral's content, with an id once it is saved. */
export const generatedCollateralSchema = collateralSchema
  .pick({
    id: true,
    type: true,
    name: true,
    description: true,
    ctaText: true,
    ctaUrl: true,
    imageUrl: true,
    status: true,
  })
  .partial({ id: true });
export type GeneratedCollateral = z.infer<typeof generatedCollateralSchema>;

export function sortCollateral<T extends { status: CollateralStatus }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => COLLATERAL_STATUS_ORDER[a.status] - COLLATERAL_STATUS_ORDER[b.status]);
}

/** SPEC §5 AI generation: a description over 100 characters is cut at the last space before 100. */
export function cutDescription(text: string, max = COLLATERAL_DESCRIPTION_MAX): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const lastSpace = clean.lastIndexOf(" ", max);
  return (lastSpace > 0 ? clean.slice(0, lastSpace) : clean.slice(0, max)).trim();
}

/** SPEC §5: utm_source, utm_medium=email and utm_campaign appended, joined with ? or &. */
export function withUtm(url: string, source: string, campaign: string): string {
  const params = `utm_source=${encodeURIComponent(source)}&utm_medium=email&utm_campaign=${encodeURIComponent(campaign)}`;
  return `${url}${url.includes("?") ? "&" : "?"}${params}`;
}
