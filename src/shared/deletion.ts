import { z } from "zod";
import { tokenSchema } from "./auth-rules";
import { text } from "./text";

/** Issue 38: deleting an organization or an account, each confirmed from a mailed link. */
export const DELETION_KINDS = ["organization", "account"] as const;
export type DeletionKind = (typeof DELETION_KINDS)[number];

export const DELETION_MESSAGES = {
  nameMismatch: "Type the organization's name exactly as it is shown",
  mailSent: "Check your e-mail: the link in it deletes it for good",
  lastAdmin: "Make another member an admin, or delete the organization, before you delete your account",
  subscriptionActive: "Cancel the subscription in Settings → Billing before deleting the organization",
  invalidLink: "This link is invalid or has expired",
  notAdmin: "Only an admin of the organization can delete it",
  organizationDeleted: "Your organization and everything in it were deleted",
  accountDeleted: "Your account was deleted",
} as const;

/** The organization's name, typed by the admin as it is shown. */
export const organizationDeletionSchema = z.object({
  name: text("Organization name", { error: "Type the organization's name" }).pipe(z.string().max(200)),
});
export type OrganizationDeletionInput = z.infer<typeof organizationDeletionSchema>;

export const deletionConfirmSchema = z.object({ token: tokenSchema });

export const deletionConfirmedSchema = z.object({
  kind: z.enum(DELETION_KINDS),
  message: z.string(),
});
export type DeletionConfirmed = z.infer<typeof deletionConfirmedSchema>;

/** What people and links say in place of an organization that was deleted. */
export const DELETED_ORGANIZATION_NAME = "Deleted organization";
