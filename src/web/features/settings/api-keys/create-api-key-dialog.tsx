import { zodResolver } from "@hookform/resolvers/zod";
import { type CreatedApiKey as CreatedApiKeyBody, createApiKeySchema } from "@shared/api-keys";
import { Plus } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { FormDialogFooter } from "@/components/ui/form-dialog-footer";
import { FormField } from "@/components/ui/form-field";
import { useCreateApiKey } from "@/features/settings/api-keys/api";
import { CreatedApiKey } from "@/features/settings/api-keys/created-api-key";
import { errorMessage } from "@/lib/api-client";

/** SPEC §2 Create Key dialog: name the key, then see it in full once, with a copy button. */
export function CreateApiKeyDialog() {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<CreatedApiKeyBody | null>(null);
  const create = useCreateApiKey();
  const form = useForm({ resolver: zodResolver(createApiKeySchema), defaultValues: { name: "" } });

  const changeOpen = (next: boolean) => {
    // Closing mid-request could lose the one-time key, so the dialog waits for the answer.
    if (create.isPending) return;
    setOpen(next);
    if (!next) {
      setCreated(null);
      create.reset();
      form.reset();
    }
  };
  const onSubmit = form.handleSubmit((values) => create.mutate(values, { onSuccess: setCreated }));

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button>
          <Plus />
          Create Key
        </Button>
      </DialogTrigger>
      <DialogContent>
        {created ? (
          <>
            <DialogHeader>
              <DialogTitle>API Key Created</DialogTitle>
              <DialogDescription>
                Copy your key now. For your security, it will not be shown again.
              </DialogDescription>
            </DialogHeader>
            <CreatedApiKey apiKey={created.key} />
            <DialogFooter>
              <Button type="button" onClick={() => changeOpen(false)}>
                Done
              </Button>
            </DialogFooter>
          </>
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Create API Key</DialogTitle>
              <DialogDescription>Give the key a name to recognise where it is used.</DialogDescription>
            </DialogHeader>
            <form aria-label="Create API Key" noValidate className="grid gap-4" onSubmit={onSubmit}>
              <FormField
                control={form.control}
                name="name"
                label="Key Name"
                autoComplete="off"
                placeholder="e.g. Production API Key"
              />
              <FormDialogFooter
                submitLabel="Create"
                pending={create.isPending}
                error={create.isError ? errorMessage(create.error, "Failed to create API key") : null}
              />
            </form>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
