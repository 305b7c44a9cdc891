import { PendingApprovalNotice } from "@/features/onboarding/pending-approval-notice";
import { SetupWizard } from "@/features/onboarding/setup-wizard";
import { useCurrentUser } from "@/lib/session";

/** /setup: the wizard, or the notice while a request to join an existing organization waits. */
export function SetupPage() {
  const { user } = useCurrentUser();
  const pending = user?.pendingOrganization ?? null;
  return pending ? <PendingApprovalNotice organizationName={pending.name} /> : <SetupWizard />;
}
