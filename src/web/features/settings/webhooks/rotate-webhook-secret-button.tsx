import type { WebhookEndpoint } from "@shared/webhooks";
import { RotateCw } from "lucide-react";
import { useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { OneTimeSecret } from "@/components/one-time-secret";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { useRotateWebhookSecret } from "@/features/settings/webhooks/api";
import { useMutationDialog } from "@/hooks/use-mutation-dialog";
import { errorMessage } from "@/lib/api-client";

/**
 * CONTRACT §9 rotation: asks first, then shows the new secret once. For 24 hours Buddy signs with
 * both, so a receiver can switch without losing a message.
 */
export function RotateWebhookSecretButton({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = useRotateWebhookSecret();
  const [confirming, changeConfirming] = useMutationDialog(rotate);

  return (
    <>
      <Button variant="outline" size="sm" onClick={() => changeConfirming(true)}>
        <RotateCw />
        Rotate secret
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={changeConfirming}
        title="Rotate signing secret"
        description="Buddy will sign this endpoint's messages with a new secret from now on. The current secret keeps working for 24 hours, so you have time to update your receiver."
        confirmLabel="Rotate secret"
        pending={rotate.isPending}
        error={rotate.isError ? errorMessage(rotate.error, "Failed to rotate the secret") : null}
        onConfirm={() =>
          rotate.mutate(endpoint.id, {
            onSuccess: (answer) => {
              changeConfirming(false);
              setSecret(answer.secret);
            },
          })
        }
      />
      <Dialog open={secret !== null} onOpenChange={(open) => (open ? undefined : setSecret(null))}>
        <DialogContent>
          {secret ? (
            <OneTimeSecret
              title="New signing secret"
              description="Copy the new secret now: it will not be shown again. The old secret keeps working for 24 hours, and messages carry both signatures until then."
              secret={secret}
              testId="webhook-secret"
              onDone={() => setSecret(null)}
            />
          ) : null}
        </DialogContent>
      </Dialog>
    </>
  );
}
