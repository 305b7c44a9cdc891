import { z } from "zod";
import { MARKETING_PROVIDERS, TRANSACTIONAL_PROVIDERS } from "./onboarding";
import { relationshipSchema } from "./relationships";
import { text } from "./text";

/** SPEC §9 confidence values. */
export const CONFIDENCE = { competitor: 0.9, directIntegration: 0.9, complement: 0.7 } as const;

export const suggestedToolSchema = z.object({
  name: z.string(),
  url: z.string(),
  domain: z.string(),
  description: z.string(),
  category: z.string(),
  categoryName: z.string(),
  direct_integration: z.boolean(),
  reason: z.string(),
  confidence: z.number(),
  isPlatformUser: z.boolean(),
  organizationId: z.string().nullable(),
});
export type SuggestedTool = z.infer<typeof suggestedToolSchema>;

/** SPEC §3 suggestions response; `suggestions` is the dashboard's stored list (relationships). */
export const suggestionsResponseSchema = z.object({
  category: z.object({ slug: z.string(), name: z.string() }).nullable(),
  competitors: z.array(suggestedToolSchema),
  categories: z.array(z.object({ name: z.string(), slug: z.string(), tools: z.array(suggestedToolSchema) })),
  /** Signed-in callers only: the stored suggestions (relationships with status "suggested"). */
  suggestions: z.array(relationshipSchema).optional(),
});
export type SuggestionsResponse = z.infer<typeof suggestionsResponseSchema>;

export const suggestionsQuerySchema = z.object({
  domain: text("domain").min(1).max(253),
  name: text("name").max(200).optional(),
  description: text("description", { multiline: true }).max(2000).optional(),
  transactional: z.enum(TRANSACTIONAL_PROVIDERS).optional(),
  marketing: z.enum(MARKETING_PROVIDERS).optional(),
  force: z.enum(["true", "false"]).optional(),
});
