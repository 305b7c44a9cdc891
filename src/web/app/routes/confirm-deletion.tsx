import { AuthLayout } from "@/components/layout/auth-layout";
import { ConfirmDeletion } from "@/features/deletion/confirm-deletion";

export function ConfirmDeletionRoute() {
  return (
    <AuthLayout title="Confirm the deletion" description="This cannot be undone.">
      <ConfirmDeletion />
    </AuthLayout>
  );
}
