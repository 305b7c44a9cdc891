import { zodResolver } from "@hookform/resolvers/zod";
import { type CreatedApiKey as CreatedApiKeyBody, createApiKeySchema } from "@shared/api-keys";
import { Plus } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { OneTimeSecret } from "@/components/one-time-secret";
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
import { useCreateApiKey } from "@/features/settings/api-keys/api";
import { useMutationDialog } from "@/hooks/use-mutation-dialog";
import { errorMessage } from "@/lib/api-client";

/** SPEC §2 Create Key dialog: name the key, then see it in full once, with a copy button. */
export function CreateApiKeyDialog() {
  const [created, setCreated] = useState<CreatedApiKeyBody | null>(null);
  const create = useCreateApiKey();
  const form = useForm({ resolver: zodResolver(createApiKeySchema), defaultValues: { name: "" } });
  // Closing mid-request could lose the one-time key, so the dialog waits for the answer.
  const [open, changeOpen] = useMutationDialog(create, () => {
    setCreated(null);
    form.reset();
  });
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
          // SPEC §4: the full key exists on screen only here, once; the list shows it masked.
          <OneTimeSecret
            title="API Key Created"
            description="Copy your key now. For your security, it will not be shown again."
            secret={created.key}
            copyLabel="Copy API Key"
            testId="created-api-key"
            onDone={() => changeOpen(false)}
          />
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
