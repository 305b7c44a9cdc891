import type { ApiKey } from "@shared/api-keys";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Button } from "@/components/ui/button";
import { useRevokeApiKey } from "@/features/settings/api-keys/api";
import { useMutationDialog } from "@/hooks/use-mutation-dialog";
import { errorMessage } from "@/lib/api-client";

/** SPEC §4: revoking is irreversible, so it asks first; a failure stays in the dialog (SPEC §8). */
export function RevokeApiKeyButton({ apiKey }: { apiKey: ApiKey }) {
  const revoke = useRevokeApiKey();
  const [open, changeOpen] = useMutationDialog(revoke);

  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="text-destructive hover:text-destructive"
        onClick={() => changeOpen(true)}
      >
        Revoke
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={changeOpen}
        title="Revoke API Key"
        description="Are you sure you want to revoke this API key? This action cannot be undone."
        confirmLabel="Revoke Key"
        pending={revoke.isPending}
        error={revoke.isError ? errorMessage(revoke.error, "Failed to revoke API key") : null}
        onConfirm={() => revoke.mutate(apiKey.id, { onSuccess: () => changeOpen(false) })}
      />
    </>
  );
}
