import { Users } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { QueryError } from "@/components/query-error";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useTeamMembers } from "@/features/settings/team/api";
import { InviteMemberDialog } from "@/features/settings/team/invite-member-dialog";
import { TeamMemberRow } from "@/features/settings/team/team-member-row";
import { useCurrentUser } from "@/lib/session";

/** Settings → Team tab (SPEC §2). The Approve permission comes from the server (SPEC §6). */
export function TeamPanel() {
  const { user } = useCurrentUser();
  const team = useTeamMembers();

  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle>Team Members</CardTitle>
          <CardDescription>
            Invite colleagues and manage who can use Buddy for your organization.
          </CardDescription>
        </div>
        <InviteMemberDialog />
      </CardHeader>
      <CardContent>
        {team.isPending ? (
          <div role="status" aria-label="Loading" className="grid gap-2">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : team.isError ? (
          <QueryError
            title="Failed to fetch team members"
            error={team.error}
            onRetry={() => team.refetch()}
          />
        ) : team.data.length === 0 ? (
          <EmptyState icon={Users} description="No team members yet. Invite someone to get started." />
        ) : (
          <ul aria-label="Team members" className="divide-y rounded-lg border">
            {team.data.map((member) => (
              <TeamMemberRow
                key={member.id}
                member={member}
                canApprove={user?.canApproveMembers === true}
                isSelf={!member.invited && member.user.email === user?.email}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
