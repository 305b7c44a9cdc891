import { z } from "zod";

/**
 * What a new organization does after set-up to take part in the network, in the order the overview's
 * "Next steps" card lists them. Each is ticked from what the database records, never by the user.
 */
export const NEXT_STEPS = [
  "add_buddy",
  "publish_ad",
  "share_ad",
  "install_tracking",
  "connect_stripe",
] as const;
export type NextStepId = (typeof NEXT_STEPS)[number];

/** `GET /api/onboarding/next-steps`: every step, in order, and whether it is done. */
export const nextStepsSchema = z.object({
  steps: z.array(z.object({ id: z.enum(NEXT_STEPS), done: z.boolean() })),
});
export type NextSteps = z.infer<typeof nextStepsSchema>;
