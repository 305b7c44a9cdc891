import { z } from "zod";
import { domainChallengeSchema } from "./domain-verification";

// The account rules, form schemas and messages live in auth-rules.ts (zod/mini, light enough for the
// sign-in page); the answers' shapes stay here.
export * from "./auth-rules";

export const ROLES = ["admin", "member"] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** CONTRACT §3: the user object wherever one is returned. */
export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema.nullable(),
  organizationId: z.string().nullable(),
  hasCompletedOnboarding: z.boolean(),
  /** SPEC §6's permission flag: whether this user may approve pending team members (admins). */
  canApproveMembers: z.boolean(),
  /** Set while the user waits for an admin to approve them into an organization already on Buddy. */
  pendingOrganization: z.object({ name: z.string() }).nullable().optional(),
  /** Set while the user's onboarding waits for proof that they control its domain (CONTRACT §4). */
  domainClaim: domainChallengeSchema.nullable().optional(),
});
export type User = z.infer<typeof userSchema>;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const sessionResponseSchema = z.object({
  token: z.string(),
  user: userSchema,
  message: z.string(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** A sign-up's answer: `signupSecret` goes back with the verification from this browser. */
export const signupResponseSchema = z.object({ message: z.string(), signupSecret: z.string() });
export type SignupResponse = z.infer<typeof signupResponseSchema>;

/**
 * A verification's answer: a session, and when the verifier did not prove they chose the
 * sign-up's password, a reset token to choose one with (`/api/reset-password`).
 */
export const verifyEmailResponseSchema = sessionResponseSchema.extend({
  setPasswordToken: z.string().nullable(),
});
export type VerifyEmailResponse = z.infer<typeof verifyEmailResponseSchema>;

export const meResponseSchema = z.object({ user: userSchema });
export type MeResponse = z.infer<typeof meResponseSchema>;
