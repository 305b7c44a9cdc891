import type { Collateral } from "@shared/collateral";
import type { Relationship } from "@shared/relationships";
import { Megaphone, Sparkles } from "lucide-react";
import { useMemo } from "react";
import { EmptyState } from "@/components/empty-state";
import { QueryError } from "@/components/query-error";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useGenerateCollateralFor, useOrganizationCollateral } from "@/features/collateral/api";
import { CollateralPreview } from "@/features/collateral/collateral-preview";
import { CopySnippetButtons } from "@/features/collateral/copy-snippet-buttons";
import type { AdCompany } from "@/features/collateral/snippet-copy";
import { useShortLink } from "@/features/collateral/use-short-link";

/**
 * One ad, shown with the link that will be shared: its short tracked link, the one every copy
 * carries. If it cannot be made, the full tracked link Copy HTML falls back to.
 */
function ToolCollateralItem({ collateral, company }: { collateral: Collateral; company: AdCompany }) {
  const shortLink = useShortLink(collateral.trackedUrl);
  const sharedUrl = shortLink.data ?? (shortLink.isError ? collateral.trackedUrl || collateral.ctaUrl : null);
  return (
    <li
      data-testid="tool-collateral-item"
      className="grid items-start gap-6 rounded-lg border p-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]"
    >
      <CollateralPreview collateral={collateral} linkUrl={sharedUrl} />
      <CopySnippetButtons collateral={collateral} company={company} sharedUrl={sharedUrl} />
    </li>
  );
}

/**
 * SPEC §2 tool detail: the Buddy's ACTIVE collateral, ready to share. The server also returns
 * drafts the caller wrote for the Buddy; only live ads are shareable, so the rest are left out.
 * Each one is shared as its link alone, or as an HTML, text or JSON snippet, all with the caller's
 * tracked short link.
 */
export function ToolCollateralCard({ relationship }: { relationship: Relationship }) {
  const { targetOrg } = relationship;
  const collateral = useOrganizationCollateral(targetOrg.id);
  const generate = useGenerateCollateralFor(targetOrg.id);
  const active = (collateral.data ?? []).filter((item) => item.status === "active");
  const company = useMemo(
    () => ({
      name: targetOrg.name,
      website: targetOrg.website,
      description: targetOrg.description,
      domain: targetOrg.domain,
    }),
    [targetOrg.name, targetOrg.website, targetOrg.description, targetOrg.domain],
  );

  return (
    <Card data-testid="tool-collateral">
      <CardHeader>
        <CardTitle>Marketing Collateral</CardTitle>
        <CardDescription>Ads for {targetOrg.name} to share with your customers.</CardDescription>
      </CardHeader>
      <CardContent>
        {collateral.isPending ? (
          <div role="status" aria-label="Loading" className="grid gap-4 sm:grid-cols-2">
            <Skeleton className="h-48 w-full" />
            <Skeleton className="h-48 w-full" />
          </div>
        ) : collateral.isError ? (
          <QueryError
            title="Failed to fetch collateral"
            error={collateral.error}
            onRetry={() => collateral.refetch()}
          />
        ) : active.length === 0 ? (
          <EmptyState
            icon={Megaphone}
            description="No marketing collateral available. Generate some to get started."
          >
            <Button
              disabled={generate.isPending}
              aria-busy={generate.isPending}
              onClick={() => generate.mutate()}
            >
              {generate.isPending ? <Spinner /> : <Sparkles />}
              Generate
            </Button>
          </EmptyState>
        ) : (
          <ul className="grid gap-4" aria-label="Marketing collateral">
            {active.map((item) => (
              <ToolCollateralItem key={item.id} collateral={item} company={company} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
