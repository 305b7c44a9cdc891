import { DomainVerificationNotice } from "@/features/onboarding/domain-verification-notice";
import { PendingApprovalNotice } from "@/features/onboarding/pending-approval-notice";
import { SetupWizard } from "@/features/onboarding/setup-wizard";
import { useCurrentUser } from "@/lib/session";

/**
 * /setup: the wizard; the notice while a request to join an existing organization waits; or the
 * verification screen while the user's domain is not proven yet (CONTRACT §4).
 */
export function SetupPage() {
  const { user } = useCurrentUser();
  const pending = user?.pendingOrganization ?? null;
  if (pending) return <PendingApprovalNotice organizationName={pending.name} />;
  if (user?.domainClaim) return <DomainVerificationNotice challenge={user.domainClaim} />;
  return <SetupWizard />;
}
