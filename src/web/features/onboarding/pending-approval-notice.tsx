import { Hourglass } from "lucide-react";
import { AuthLayout } from "@/components/layout/auth-layout";
import { SetupLogoutButton } from "@/features/onboarding/setup-logout-button";

/** /setup for a user whose membership of an existing organization awaits an admin. */
export function PendingApprovalNotice({ organizationName }: { organizationName: string }) {
  return (
    <AuthLayout title="Waiting for approval">
      <div
        role="status"
        data-testid="pending-approval"
        className="grid justify-items-center gap-4 text-center"
      >
        <Hourglass className="size-10 text-muted-foreground" aria-hidden="true" />
        <p>Your request to join {organizationName} is waiting for an admin's approval.</p>
        <SetupLogoutButton />
      </div>
    </AuthLayout>
  );
}
