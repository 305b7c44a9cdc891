import { z } from "zod";

/** CONTRACT §2: every error body. */
export const errorBodySchema = z.object({
  message: z.string(),
  clearToken: z.boolean().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
