import { z } from "zod";
import { emailSchema, roleSchema } from "./auth";

/** SPEC §9: the invite role defaults to member. */
export const DEFAULT_INVITE_ROLE = "member" as const;
/** Invitation links are single-use and expire after a week. */
export const INVITATION_TTL_DAYS = 7;

export const inviteTeamMemberSchema = z.object({
  email: emailSchema,
  role: roleSchema.default(DEFAULT_INVITE_ROLE),
});
export type InviteTeamMemberInput = z.infer<typeof inviteTeamMemberSchema>;

export const changeTeamMemberRoleSchema = z.object({ role: roleSchema });
export type ChangeTeamMemberRoleInput = z.infer<typeof changeTeamMemberRoleSchema>;

export const TEAM_MEMBER_STATUSES = ["active", "pending"] as const;

/**
 * CONTRACT §7: `[{id, role, status, user:{email}}]`. A pending row is either someone invited
 * who has not registered yet (`invited: true`) or someone who onboarded with the organization's
 * domain and awaits an admin's approval (`invited: false`).
 */
export const teamMemberSchema = z.object({
  id: z.string(),
  role: roleSchema,
  status: z.enum(TEAM_MEMBER_STATUSES),
  invited: z.boolean(),
  user: z.object({ email: z.string() }),
  createdAt: z.string(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const TEAM_MESSAGES = {
  invitationSent: "Invitation sent",
  alreadyInTeam: "This person is already in your team",
  onlyAdminsInviteAdmins: "Only admins can invite admins",
  lastAdmin: "An organization needs at least one admin",
  notAwaitingApproval: "This member is not awaiting approval",
  memberInOtherOrganization: "This person already belongs to another organization",
  approved: "Member approved",
  removed: "Member removed",
  roleChanged: "Role updated",
} as const;
