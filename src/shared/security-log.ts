import { z } from "zod";
import { text } from "./text";

/** CONTRACT §3: what an organization's admins can see was done to its accounts and settings. */
export const SECURITY_LOG_ACTIONS = [
  "sign_in",
  "password_reset",
  "api_key_created",
  "api_key_revoked",
  "webhook_created",
  "webhook_updated",
  "webhook_secret_rotated",
  "webhook_deleted",
  "webhook_message_resent",
  "invitation_sent",
  "invitation_accepted",
  "member_approved",
  "role_changed",
  "member_removed",
  "stripe_connected",
  "stripe_disconnected",
  "domain_proved",
  "organization_deletion_requested",
  "organization_deleted",
  "account_deletion_requested",
  "account_deleted",
  "overlap_run_started",
  "overlap_run_answered",
  "overlap_run_completed",
  "overlap_run_cancelled",
  "overlap_sharing_changed",
] as const;
export type SecurityLogAction = (typeof SECURITY_LOG_ACTIONS)[number];

/** The actions whose target names a person's e-mail address (an invitee, a member). */
export const SECURITY_LOG_ADDRESS_ACTIONS = [
  "invitation_sent",
  "invitation_accepted",
  "member_approved",
  "role_changed",
  "member_removed",
] as const satisfies readonly SecurityLogAction[];

/** How each action reads in the log, for people. */
export const SECURITY_LOG_LABELS: Record<SecurityLogAction, string> = {
  sign_in: "Signed in",
  password_reset: "Password reset",
  api_key_created: "API key created",
  api_key_revoked: "API key revoked",
  webhook_created: "Webhook endpoint created",
  webhook_updated: "Webhook endpoint changed",
  webhook_secret_rotated: "Webhook secret rotated",
  webhook_deleted: "Webhook endpoint deleted",
  webhook_message_resent: "Webhook message sent again",
  invitation_sent: "Invitation sent",
  invitation_accepted: "Invitation accepted",
  member_approved: "Member approved",
  role_changed: "Role changed",
  member_removed: "Member removed",
  stripe_connected: "Stripe connected",
  stripe_disconnected: "Stripe disconnected",
  domain_proved: "Domain proved",
  organization_deletion_requested: "Organization deletion requested",
  organization_deleted: "Organization deleted",
  account_deletion_requested: "Account deletion requested",
  account_deleted: "Account deleted",
  overlap_run_started: "Account overlap run started",
  overlap_run_answered: "Account overlap run answered",
  overlap_run_completed: "Account overlap run completed",
  overlap_run_cancelled: "Account overlap run cancelled",
  overlap_sharing_changed: "Account overlap sharing changed",
};

export const SECURITY_LOG_RETENTION_DAYS = 180;
export const SECURITY_LOG_PAGE_SIZE = 50;

export const securityLogEntrySchema = z.object({
  id: z.string(),
  action: z.enum(SECURITY_LOG_ACTIONS),
  actorEmail: z.string().nullable(),
  target: z.string().nullable(),
  ipAddress: z.string().nullable(),
  createdAt: z.string(),
});
export type SecurityLogEntry = z.infer<typeof securityLogEntrySchema>;

export const securityLogResponseSchema = z.object({
  entries: z.array(securityLogEntrySchema),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type SecurityLogResponse = z.infer<typeof securityLogResponseSchema>;

const limitError = { error: `limit must be a number from 1 to ${SECURITY_LOG_PAGE_SIZE}` };
export const securityLogQuerySchema = z.object({
  before: text("before", { trim: false }).min(1).max(200).optional(),
  limit: z.coerce
    .number(limitError)
    .int(limitError)
    .min(1, limitError)
    .max(SECURITY_LOG_PAGE_SIZE, limitError)
    .optional(),
});
