import { QueryError } from "@/components/query-error";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { DeleteAccountCard, DeleteOrganizationCard } from "@/features/settings/profile/danger-zone";
import { DomainVerificationCard } from "@/features/settings/profile/domain-verification-card";
import { OrganizationForm } from "@/features/settings/profile/organization-form";
import { useOrganization } from "@/hooks/use-organization";
import { useCurrentUser } from "@/lib/session";

/** Settings → profile tab (SPEC §2 Organization form). */
export function OrganizationProfile() {
  const organization = useOrganization();
  const { user } = useCurrentUser();
  const canEdit = user?.role === "admin";

  return (
    <div className="grid gap-6">
      {organization.data && (!organization.data.domainVerified || organization.data.pendingDomain) ? (
        <DomainVerificationCard organization={organization.data} isAdmin={canEdit} />
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>Organization Profile</CardTitle>
          <CardDescription>Update your organization's information</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {!canEdit ? (
            <p className="rounded-md bg-muted px-3 py-2 text-muted-foreground text-sm">
              Only admins can change these settings.
            </p>
          ) : null}
          {organization.isPending ? (
            <div role="status" aria-label="Loading" className="grid gap-4">
              <Skeleton className="size-16" />
              <Skeleton className="h-9 w-full" />
              <Skeleton className="h-9 w-full" />
              <Skeleton className="h-24 w-full" />
            </div>
          ) : organization.isError ? (
            <QueryError
              title="Failed to fetch organization data"
              error={organization.error}
              onRetry={() => organization.refetch()}
            />
          ) : (
            // Keyed so the form starts from the server's values again if the organization changes.
            <OrganizationForm
              key={`${organization.data.id}:${organization.data.pendingDomain ?? ""}`}
              organization={organization.data}
              canEdit={canEdit}
            />
          )}
        </CardContent>
      </Card>
      {canEdit && organization.data ? (
        <DeleteOrganizationCard organizationName={organization.data.name} />
      ) : null}
      <DeleteAccountCard isAdmin={canEdit} />
    </div>
  );
}
