import type { InviteTeamMemberInput, TeamMember } from "@shared/team";
import { TEAM_MESSAGES } from "@shared/team";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { apiRequest } from "@/lib/api-client";
import { invalidateApiPaths } from "@/lib/query-client";

export const TEAM_MEMBERS_PATH = "/api/team-members";

type MemberResult = { message: string; member: TeamMember };

export function useTeamMembers() {
  return useQuery<TeamMember[]>({ queryKey: [TEAM_MEMBERS_PATH] });
}

/** SPEC §8: the dialog shows an invite failure inline; success is the 'Invitation sent' notice. */
export function useInviteTeamMember() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: InviteTeamMemberInput) =>
      apiRequest<MemberResult>(`${TEAM_MEMBERS_PATH}/invite`, { method: "POST", body: input }),
    onSuccess: () => {
      toast.success(TEAM_MESSAGES.invitationSent);
      return invalidateApiPaths(client, TEAM_MEMBERS_PATH);
    },
  });
}

/** SPEC §8: approve and remove failures are only logged. */
export function useApproveTeamMember() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<MemberResult>(`${TEAM_MEMBERS_PATH}/${encodeURIComponent(id)}/approve`, { method: "POST" }),
    onSuccess: () => invalidateApiPaths(client, TEAM_MEMBERS_PATH),
    onError: (error) => console.error("Failed to approve team member", error),
  });
}

export function useRemoveTeamMember() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<void>(`${TEAM_MEMBERS_PATH}/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => invalidateApiPaths(client, TEAM_MEMBERS_PATH),
    onError: (error) => console.error("Failed to remove team member", error),
  });
}
