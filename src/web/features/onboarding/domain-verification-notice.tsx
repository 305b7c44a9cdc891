import type { DomainChallenge } from "@shared/domain-verification";
import { RefreshCw, ShieldCheck } from "lucide-react";
import { DomainProofInstructions } from "@/components/domain-proof-instructions";
import { AuthLayout } from "@/components/layout/auth-layout";
import { Button } from "@/components/ui/button";
import { useCancelDomainClaim, useCheckDomainClaim } from "@/features/onboarding/api";
import { SetupLogoutButton } from "@/features/onboarding/setup-logout-button";

/**
 * /setup while the user's onboarding waits for proof of the domain (CONTRACT §4): nothing is
 * owned until then, so a look-alike sign-up cannot become someone else's company.
 */
export function DomainVerificationNotice({ challenge }: { challenge: DomainChallenge }) {
  const check = useCheckDomainClaim();
  const cancel = useCancelDomainClaim();
  const lastMessage = check.data?.user.domainClaim ? check.data.message : null;
  return (
    <AuthLayout
      title="Verify your domain"
      description={`Show that you control ${challenge.domain} to finish setting up Buddy.`}
      className="max-w-xl"
    >
      <div className="grid gap-5" data-testid="domain-verification">
        <div className="flex items-start gap-3 rounded-md border bg-muted/40 p-3 text-sm">
          <ShieldCheck className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
          <p className="text-left">
            Only someone who controls {challenge.domain} can set it up as a company on Buddy, publish its ads
            or approve its team. Nothing is created until the domain is verified.
          </p>
        </div>
        <DomainProofInstructions challenge={challenge} />
        {lastMessage ? (
          <p role="alert" className="text-left text-sm text-destructive">
            {lastMessage}
          </p>
        ) : null}
        <div className="flex flex-wrap items-center justify-between gap-2">
          <SetupLogoutButton />
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              variant="outline"
              onClick={() => cancel.mutate()}
              disabled={cancel.isPending || check.isPending}
            >
              Use a different website
            </Button>
            <Button type="button" onClick={() => check.mutate()} disabled={check.isPending}>
              <RefreshCw className={check.isPending ? "animate-spin" : undefined} aria-hidden="true" />
              {check.isPending ? "Checking..." : "Check again"}
            </Button>
          </div>
        </div>
      </div>
    </AuthLayout>
  );
}
