import type { Organization } from "@shared/organizations";
import { RefreshCw } from "lucide-react";
import { DomainProofInstructions } from "@/components/domain-proof-instructions";
import { QueryError } from "@/components/query-error";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import {
  useCancelWebsiteChange,
  useCheckOrganizationDomain,
  useDomainStatus,
} from "@/features/settings/profile/api";

/**
 * Settings → profile, while a domain waits for proof (CONTRACT §4): a website change, which
 * applies only once an admin proves the new domain, or the domain of an organization set up
 * before proof was required, which until then publishes no ads, has no badge and approves no one.
 * Admins see the token; members are told to ask one.
 */
export function DomainVerificationCard({
  organization,
  isAdmin,
}: {
  organization: Organization;
  isAdmin: boolean;
}) {
  const status = useDomainStatus(isAdmin);
  const check = useCheckOrganizationDomain();
  const cancel = useCancelWebsiteChange();
  const notFound = check.data && !check.data.verified ? check.data.message : null;
  const { domain, pendingDomain } = organization;
  const toProve = pendingDomain ?? domain;
  return (
    <Card data-testid="domain-verification-card" className="border-amber-300">
      <CardHeader>
        <CardTitle className="break-all">Verify {toProve}</CardTitle>
        <CardDescription>
          {pendingDomain
            ? `Your website change to ${pendingDomain} waits until you show that you control it. Until then your organization stays on ${domain}, with its name, badge and ads.`
            : `Until you show that you control ${domain}, your ads are not published, your organization has no badge and pending members cannot be approved.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!isAdmin ? (
          <p className="text-muted-foreground text-sm">Ask an admin of your organization to verify it.</p>
        ) : status.isPending ? (
          <Skeleton className="h-40 w-full" />
        ) : status.isError ? (
          <QueryError
            title="Failed to fetch the verification token"
            error={status.error}
            onRetry={() => status.refetch()}
          />
        ) : (
          <>
            <DomainProofInstructions challenge={status.data} />
            {notFound ? (
              <p role="alert" className="text-destructive text-sm">
                {notFound}
              </p>
            ) : null}
            <div className="flex flex-wrap gap-2">
              <Button type="button" onClick={() => check.mutate()} disabled={check.isPending}>
                <RefreshCw className={check.isPending ? "animate-spin" : undefined} aria-hidden="true" />
                {check.isPending ? "Checking..." : "Check again"}
              </Button>
              {pendingDomain ? (
                <Button
                  type="button"
                  variant="outline"
                  onClick={() => cancel.mutate()}
                  disabled={cancel.isPending}
                >
                  Keep {domain}
                </Button>
              ) : null}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
