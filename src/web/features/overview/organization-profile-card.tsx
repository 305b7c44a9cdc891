import type { ReactNode } from "react";
import { externalHref } from "@/components/external-link-button";
import { OrgLogo } from "@/components/org-logo";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { LoadError } from "@/features/overview/load-error";
import { useOrganization } from "@/hooks/use-organization";

const NOT_SET = "—";

function ProfileFact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

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
            <div className="flex items-center gap-3">
              <OrgLogo domain={org.domain} name={org.name} logoUrl={org.logoUrl} className="size-14" />
              <div className="grid min-w-0 gap-1">
                <p data-testid="organization-name" className="truncate font-semibold text-lg">
                  {org.name}
                </p>
                <a
                  href={externalHref(org.website)}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="truncate text-primary text-sm underline-offset-4 hover:underline"
                >
                  {org.website}
                </a>
              </div>
            </div>
            <dl className="grid grid-cols-2 gap-4">
              <ProfileFact label="Industry">{org.industry || NOT_SET}</ProfileFact>
              <ProfileFact label="Size">{org.size === null ? NOT_SET : `${org.size} employees`}</ProfileFact>
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
