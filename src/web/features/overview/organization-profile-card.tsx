import { formatSize, NOT_SET, OrgIdentity, ProfileFact } from "@/components/org-profile";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { LoadError } from "@/features/overview/load-error";
import { useOrganization } from "@/hooks/use-organization";

function ProfileSkeleton() {
  return (
    <div role="status" aria-label="Loading" className="grid gap-4">
      <div className="flex items-center gap-3">
        <Skeleton className="size-14" />
        <div className="grid flex-1 gap-2">
          <Skeleton className="h-4 w-1/2" />
          <Skeleton className="h-3 w-1/3" />
        </div>
      </div>
      <Skeleton className="h-3 w-full" />
      <Skeleton className="h-3 w-4/5" />
    </div>
  );
}

/** SPEC §2 Overview: the caller's organization: name, website, industry, size and description. */
export function OrganizationProfileCard() {
  const organization = useOrganization();
  const org = organization.data;

  return (
    <Card data-testid="organization-profile" className="gap-4">
      <CardHeader>
        <CardTitle>
          <h2>Organization Profile</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {organization.isPending ? (
          <ProfileSkeleton />
        ) : organization.isError ? (
          <LoadError
            title="Failed to fetch organization data"
            error={organization.error}
            onRetry={() => organization.refetch()}
          />
        ) : org ? (
          <>
            <OrgIdentity
              org={org}
              title={
                <p data-testid="organization-name" className="truncate font-semibold text-lg">
                  {org.name}
                </p>
              }
            />
            <dl className="grid grid-cols-2 gap-4">
              <ProfileFact label="Industry">{org.industry || NOT_SET}</ProfileFact>
              <ProfileFact label="Size">{formatSize(org.size)}</ProfileFact>
            </dl>
            <dl>
              <ProfileFact label="Description">
                <span className="leading-relaxed">{org.description || NOT_SET}</span>
              </ProfileFact>
            </dl>
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
