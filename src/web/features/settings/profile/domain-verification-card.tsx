import { RefreshCw } from "lucide-react";
import { DomainProofInstructions } from "@/components/domain-proof-instructions";
import { QueryError } from "@/components/query-error";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useCheckOrganizationDomain, useDomainStatus } from "@/features/settings/profile/api";

/**
 * Settings → profile, for an organization whose domain nobody has proven (a changed website, or
 * one set up before proof was required): until then it publishes no ads, has no badge and
 * approves no one (CONTRACT §4). Admins see the token; members are told to ask one.
 */
export function DomainVerificationCard({ domain, isAdmin }: { domain: string; isAdmin: boolean }) {
  const status = useDomainStatus(isAdmin);
  const check = useCheckOrganizationDomain();
  const notFound = check.data && !check.data.verified ? check.data.message : null;
  return (
    <Card data-testid="domain-verification-card" className="border-amber-300">
      <CardHeader>
        <CardTitle>Verify {domain}</CardTitle>
        <CardDescription>
          Until you show that you control {domain}, your ads are not published, your organization has no badge
          and pending members cannot be approved.
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
            <Button type="button" className="w-fit" onClick={() => check.mutate()} disabled={check.isPending}>
              <RefreshCw className={check.isPending ? "animate-spin" : undefined} aria-hidden="true" />
              {check.isPending ? "Checking..." : "Check again"}
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}
