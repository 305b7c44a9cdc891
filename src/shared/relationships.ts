import { z } from "zod";
import { emailSchema } from "./auth";
import { text } from "./text";

export const RELATIONSHIP_TYPES = ["competitor", "complement"] as const;
export const RELATIONSHIP_STATUSES = ["active", "archived", "suggested", "deleted"] as const;
export const relationshipTypeSchema = z.enum(RELATIONSHIP_TYPES, {
  error: "Type must be competitor or complement",
});
export const relationshipStatusSchema = z.enum(RELATIONSHIP_STATUSES, {
  error: "Status must be active, archived, suggested or deleted",
});
export type RelationshipType = z.infer<typeof relationshipTypeSchema>;
export type RelationshipStatus = z.infer<typeof relationshipStatusSchema>;

export const NOTES_MAX = 1000;
/**
 * The days of clicks, leads and sales between the pair that partnership strength weighs, beside
 * the categories' fit (docs/decisions.md, "Partnership strength"): a quarter, the Buddy page's
 * longer ledger window.
 */
export const STRENGTH_DAYS = 90;

/** SPEC §3 relationship, with the reason and confidence a suggestion carries. */
export const relationshipSchema = z.object({
  id: z.string(),
  type: relationshipTypeSchema,
  status: relationshipStatusSchema,
  notes: z.string().nullable(),
  reason: z.string().nullable(),
  confidence: z.number().nullable(),
  strengthScore: z.number().int().min(0).max(10),
  createdAt: z.string(),
  sourceOrg: z.object({ id: z.string() }),
  targetOrg: z.object({
    id: z.string(),
    name: z.string(),
    website: z.string(),
    domain: z.string(),
    category: z.string().nullable(),
    categoryName: z.string().nullable(),
    description: z.string().nullable(),
    industry: z.string().nullable(),
    size: z.number().int().nullable(),
    isPlatformUser: z.boolean(),
    logoUrl: z.string().nullable(),
  }),
});
export type Relationship = z.infer<typeof relationshipSchema>;

/**
 * SPEC §7: name, url, type and optionally the organization's id (from search) or notes. With an
 * organizationId the name and url are taken from that organization.
 */
export const addRelationshipSchema = z
  .object({
    name: text("Name").max(100, { error: "Name must be at most 100 characters" }).optional(),
    url: text("Website").max(253, { error: "Please enter a valid website" }).optional(),
    type: relationshipTypeSchema,
    organizationId: text("organizationId").min(1).max(100).optional(),
    notes: text("Notes", { multiline: true })
      .max(NOTES_MAX, { error: `Notes must be at most ${NOTES_MAX} characters` })
      .optional(),
  })
  .refine((value) => value.organizationId || (value.name && value.url), {
    error: "Please enter a valid website",
  });
export type AddRelationshipInput = z.infer<typeof addRelationshipSchema>;

export const updateRelationshipSchema = z
  .object({
    status: relationshipStatusSchema.optional(),
    type: relationshipTypeSchema.optional(),
    notes: text("Notes", { multiline: true })
      .max(NOTES_MAX, { error: `Notes must be at most ${NOTES_MAX} characters` })
      .nullable()
      .optional(),
  })
  .refine((value) => value.status || value.type || value.notes !== undefined, { error: "Nothing to update" });
export type UpdateRelationshipInput = z.infer<typeof updateRelationshipSchema>;

export const inviteContactSchema = z.object({ email: emailSchema });

/** SPEC §4 badge colours by status. */
export const STATUS_BADGE: Record<RelationshipStatus, "green" | "yellow" | "blue" | "grey"> = {
  active: "green",
  archived: "yellow",
  suggested: "blue",
  deleted: "grey",
};
