import { zodResolver } from "@hookform/resolvers/zod";
import {
  createWebhookSchema,
  WEBHOOK_EVENTS,
  type WebhookEndpoint,
  type WebhookEvent,
} from "@shared/webhooks";
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
import { useCreateWebhookEndpoint } from "@/features/settings/webhooks/api";
import { WebhookEventsField } from "@/features/settings/webhooks/webhook-events-field";
import { useMutationDialog } from "@/hooks/use-mutation-dialog";
import { errorMessage } from "@/lib/api-client";

type AddWebhookForm = { url: string; events: WebhookEvent[] };

/**
 * 'Add endpoint' (CONTRACT §9): a URL and the events it wants, checked with the server's own
 * schema; then the signing secret, shown in full this once.
 */
export function AddWebhookDialog() {
  const [created, setCreated] = useState<WebhookEndpoint | null>(null);
  const create = useCreateWebhookEndpoint();
  const form = useForm<AddWebhookForm, unknown, AddWebhookForm>({
    resolver: zodResolver(createWebhookSchema),
    defaultValues: { url: "", events: [...WEBHOOK_EVENTS] },
  });

  // Closing mid-request could lose the one-time secret, so the dialog waits for the answer.
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
          Add endpoint
        </Button>
      </DialogTrigger>
      <DialogContent>
        {created ? (
          <OneTimeSecret
            title="Endpoint added"
            description="Copy the signing secret now and keep it with your receiver: it verifies that messages come from Buddy. For your security, it will not be shown again."
            secret={created.secret}
            testId="webhook-secret"
            onDone={() => changeOpen(false)}
          />
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Add webhook endpoint</DialogTitle>
              <DialogDescription>
                Buddy sends a signed POST to this URL each time one of the chosen events happens.
              </DialogDescription>
            </DialogHeader>
            <form aria-label="Add webhook endpoint" noValidate className="grid gap-5" onSubmit={onSubmit}>
              <FormField
                control={form.control}
                name="url"
                label="Endpoint URL"
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                placeholder="https://example.com/webhooks/buddy"
              />
              <WebhookEventsField control={form.control} />
              <FormDialogFooter
                submitLabel="Add endpoint"
                pending={create.isPending}
                error={create.isError ? errorMessage(create.error, "Failed to add webhook endpoint") : null}
              />
            </form>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
