import { z } from "zod";

export const ADS_LIMIT_MAX = 5;
export const AD_TEMPLATES = ["simple", "card", "banner"] as const;
export type AdTemplate = (typeof AD_TEMPLATES)[number];
/** SPEC §9: simple and card are 600 px wide, banner 800 px. */
export const AD_TEMPLATE_WIDTH: Record<AdTemplate, number> = { simple: 600, card: 600, banner: 800 };

export const adsQuerySchema = z.object({
  format: z.enum(["json", "html", "text"], { error: "format must be json, html or text" }).default("json"),
  limit: z.coerce
    .number({ error: "limit must be a number from 1 to 5" })
    .int({ error: "limit must be a number from 1 to 5" })
    .min(1, { error: "limit must be a number from 1 to 5" })
    .max(ADS_LIMIT_MAX, { error: "limit must be a number from 1 to 5" })
    .default(1),
  includeSuggestions: z
    .enum(["true", "false"], { error: "includeSuggestions must be true or false" })
    .default("false"),
  template: z.enum(AD_TEMPLATES, { error: "template must be simple, card or banner" }).default("simple"),
});

/** SPEC §3 ad, as the JSON format and the copy buttons give it. */
export const adSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  ctaText: z.string(),
  ctaUrl: z.string(),
  imageUrl: z.string().nullable(),
  company: z.object({
    name: z.string(),
    website: z.string(),
    description: z.string().nullable(),
    domain: z.string(),
  }),
});
export type Ad = z.infer<typeof adSchema>;
export const adsResponseSchema = z.object({ ads: z.array(adSchema) });
