import { zodResolver } from "@hookform/resolvers/zod";
import { DEFAULT_INVITE_ROLE, inviteTeamMemberSchema } from "@shared/team";
import { UserPlus } from "lucide-react";
import { useId, useState } from "react";
import { useController, useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { FormDialogFooter } from "@/components/ui/form-dialog-footer";
import { FormField } from "@/components/ui/form-field";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useInviteTeamMember } from "@/features/settings/team/api";
import { ROLE_LABELS } from "@/features/settings/team/role-labels";
import { errorMessage } from "@/lib/api-client";

/** SPEC §2 Invite Member dialog: an e-mail and a role (member by default). */
export function InviteMemberDialog() {
  const [open, setOpen] = useState(false);
  const invite = useInviteTeamMember();
  const form = useForm({
    resolver: zodResolver(inviteTeamMemberSchema),
    defaultValues: { email: "", role: DEFAULT_INVITE_ROLE },
  });
  const { field: role } = useController({ control: form.control, name: "role" });
  const roleId = useId();

  const changeOpen = (next: boolean) => {
    if (invite.isPending) return;
    setOpen(next);
    if (!next) {
      invite.reset();
      form.reset();
    }
  };
  // SPEC §8: 'Invitation sent' closes the dialog.
  const onSubmit = form.handleSubmit((values) =>
    invite.mutate(values, { onSuccess: () => changeOpen(false) }),
  );

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button>
          <UserPlus />
          Invite Member
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Invite Team Member</DialogTitle>
          <DialogDescription>We'll e-mail them a link to join your organization on Buddy.</DialogDescription>
        </DialogHeader>
        <form aria-label="Invite Member" noValidate className="grid gap-4" onSubmit={onSubmit}>
          <FormField
            control={form.control}
            name="email"
            label="Email"
            type="email"
            autoComplete="off"
            placeholder="colleague@company.com"
          />
          <div data-slot="form-field" className="grid gap-2">
            <Label htmlFor={roleId}>Role</Label>
            <Select value={role.value ?? DEFAULT_INVITE_ROLE} onValueChange={role.onChange}>
              <SelectTrigger id={roleId} ref={role.ref} onBlur={role.onBlur} className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {(["member", "admin"] as const).map((value) => (
                  <SelectItem key={value} value={value}>
                    {ROLE_LABELS[value]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <FormDialogFooter
            submitLabel="Send Invitation"
            pending={invite.isPending}
            error={invite.isError ? errorMessage(invite.error, "Failed to invite team member") : null}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
