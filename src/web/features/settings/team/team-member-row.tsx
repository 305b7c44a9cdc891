import type { TeamMember } from "@shared/team";
import { useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useApproveTeamMember, useRemoveTeamMember } from "@/features/settings/team/api";
import { ROLE_LABELS } from "@/features/settings/team/role-labels";

type TeamMemberRowProps = { member: TeamMember; canApprove: boolean; isSelf: boolean };

/**
 * SPEC §2: email, role, a Pending badge; Approve for pending members when the user may approve;
 * Remove for everyone (the server lets admins only). An invited person joins by registering, so
 * there is nothing to approve on their row.
 */
export function TeamMemberRow({ member, canApprove, isSelf }: TeamMemberRowProps) {
  const [confirming, setConfirming] = useState(false);
  const approve = useApproveTeamMember();
  const remove = useRemoveTeamMember();
  const pending = member.status === "pending";

  return (
    <li
      data-testid="team-member-row"
      className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="grid min-w-0 gap-1">
        <p className="truncate font-medium">
          {member.user.email}
          {isSelf ? <span className="text-muted-foreground"> (you)</span> : null}
        </p>
        <div className="flex flex-wrap items-center gap-2 text-muted-foreground text-sm">
          <span>{ROLE_LABELS[member.role]}</span>
          {pending ? <Badge variant="secondary">Pending</Badge> : null}
          {member.invited ? <span className="text-xs">Invitation sent</span> : null}
        </div>
      </div>
      <div className="flex gap-2">
        {pending && !member.invited && canApprove ? (
          <Button size="sm" disabled={approve.isPending} onClick={() => approve.mutate(member.id)}>
            Approve
          </Button>
        ) : null}
        <Button
          variant="outline"
          size="sm"
          className="text-destructive hover:text-destructive"
          onClick={() => setConfirming(true)}
        >
          Remove
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={member.invited ? "Withdraw Invitation" : "Remove Team Member"}
        description={
          member.invited
            ? `The invitation to ${member.user.email} will stop working.`
            : `${member.user.email} will lose access to your organization at once.`
        }
        confirmLabel="Remove"
        pending={remove.isPending}
        // SPEC §8: a failed removal is only logged; the dialog closes either way.
        onConfirm={() => remove.mutate(member.id, { onSettled: () => setConfirming(false) })}
      />
    </li>
  );
}
