import { zodResolver } from "@hookform/resolvers/zod";
import { inviteContactSchema } from "@shared/relationships";
import { Mail } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
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
import { useInviteContact } from "@/features/relationships/api";

type InviteContactDialogProps = {
  relationshipId: string;
  organizationName: string;
};

/** Tool detail header: invite a contact at the partner company (SPEC §2, contact e-mail). */
export function InviteContactDialog({ relationshipId, organizationName }: InviteContactDialogProps) {
  const [open, setOpen] = useState(false);
  const invite = useInviteContact(relationshipId);
  const form = useForm({ resolver: zodResolver(inviteContactSchema), defaultValues: { email: "" } });

  const changeOpen = (next: boolean) => {
    setOpen(next);
    if (!next) form.reset();
  };
  const onSubmit = form.handleSubmit((values) =>
    invite.mutate(values, { onSuccess: () => changeOpen(false) }),
  );

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button>
          <Mail />
          Invite
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Invite {organizationName}</DialogTitle>
          <DialogDescription>Send an invitation to a contact at {organizationName}.</DialogDescription>
        </DialogHeader>
        <form aria-label="Invite contact" noValidate className="grid gap-4" onSubmit={onSubmit}>
          <FormField
            control={form.control}
            name="email"
            label="Contact email"
            type="email"
            autoComplete="off"
            placeholder="contact@company.com"
          />
          <FormDialogFooter submitLabel="Send Invitation" pending={invite.isPending} cancelDisabled={false} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
