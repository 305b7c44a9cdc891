import type { Relationship } from "@shared/relationships";
import { ArrowLeft, SearchX } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/layout/page-header";
import { QueryError } from "@/components/query-error";
import { Skeleton } from "@/components/ui/skeleton";
import { useRelationship } from "@/features/relationships/api";
import { InviteContactDialog } from "@/features/relationships/invite-contact-dialog";
import { ToolProfileCard } from "@/features/relationships/tool-profile-card";
import { ApiError } from "@/lib/api-client";
import { paths } from "@/lib/paths";

type ToolDetailProps = {
  id: string;
  /** Cards composed below the profile by the route (features do not import each other). */
  children?: (relationship: Relationship) => ReactNode;
};

function BackToBuddies() {
  return (
    <Link
      to={paths.tools}
      className="inline-flex w-fit items-center gap-1 text-muted-foreground text-sm hover:text-foreground"
    >
      <ArrowLeft className="size-4" aria-hidden="true" />
      Back to Buddies
    </Link>
  );
}

/** SPEC §2 tool detail (/dashboard/tools/{id}): header with Invite, then the company profile. */
export function ToolDetail({ id, children }: ToolDetailProps) {
  const relationship = useRelationship(id);

  if (relationship.isPending) {
    return (
      <div role="status" aria-label="Loading" className="grid gap-6">
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-72 w-full rounded-xl" />
      </div>
    );
  }
  if (relationship.isError) {
    const notFound = relationship.error instanceof ApiError && relationship.error.status === 404;
    return (
      <div className="grid gap-6">
        <BackToBuddies />
        {notFound ? (
          <EmptyState icon={SearchX} title="Tool not found" />
        ) : (
          <QueryError
            title="Failed to fetch relationships"
            error={relationship.error}
            onRetry={() => relationship.refetch()}
          />
        )}
      </div>
    );
  }

  const { data } = relationship;
  return (
    <div className="grid gap-6">
      <BackToBuddies />
      <PageHeader title={data.targetOrg.name}>
        <InviteContactDialog relationshipId={data.id} organizationName={data.targetOrg.name} />
      </PageHeader>
      <ToolProfileCard relationship={data} />
      {children?.(data)}
    </div>
  );
}
