import { z } from "zod";
import { text } from "./text";

/** CONTRACT §2: every error body. */
export const errorBodySchema = z.object({
  message: z.string(),
  clearToken: z.boolean().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** CONTRACT §2: ids are opaque strings; in a path or a query they meet the text boundary too. */
export const idField = (label: string) => text(label, { trim: false }).min(1).max(100);
export const idParamsSchema = z.object({ id: idField("id") });
