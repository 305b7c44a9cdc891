import type { WebhookEndpoint } from "@shared/webhooks";
import { Trash2 } from "lucide-react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Button } from "@/components/ui/button";
import { useDeleteWebhookEndpoint } from "@/features/settings/webhooks/api";
import { useMutationDialog } from "@/hooks/use-mutation-dialog";
import { errorMessage } from "@/lib/api-client";

/** Deleting drops the endpoint's waiting messages and its deliveries, so it asks first. */
export function DeleteWebhookButton({ endpoint }: { endpoint: WebhookEndpoint }) {
  const remove = useDeleteWebhookEndpoint();
  const [open, changeOpen] = useMutationDialog(remove);

  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="text-destructive hover:text-destructive"
        onClick={() => changeOpen(true)}
      >
        <Trash2 />
        Delete
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={changeOpen}
        title="Delete webhook endpoint"
        description={
          <>
            Buddy stops sending events to <span className="break-all font-medium">{endpoint.url}</span> at
            once; messages still waiting and the delivery history go with it. This cannot be undone.
          </>
        }
        confirmLabel="Delete endpoint"
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error, "Failed to delete webhook endpoint") : null}
        onConfirm={() => remove.mutate(endpoint.id, { onSuccess: () => changeOpen(false) })}
      />
    </>
  );
}
