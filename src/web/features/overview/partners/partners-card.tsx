import type { Relationship } from "@shared/relationships";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useRelationshipList } from "@/features/overview/api";
import { LoadError } from "@/features/overview/load-error";
import {
  OVERVIEW_LEDGER_DAYS,
  PARTNERS_LOAD_ERROR,
  usePartnersLedger,
} from "@/features/overview/partners/api";
import { PartnerCardList } from "@/features/overview/partners/partner-card-list";
import { nextSort, type PartnerSort, sortPartners } from "@/features/overview/partners/partner-figures";
import { PartnersTable } from "@/features/overview/partners/partners-table";
import { paths } from "@/lib/paths";

export const NO_PARTNERS_TEXT = "No partners yet.";

/** Organization id → relationship id of the caller's active Buddies: the tool pages a name links to. */
function activeBuddyLinks(relationships: Relationship[] | undefined): Map<string, string> {
  const links = new Map<string, string>();
  for (const relationship of relationships ?? []) {
    if (relationship.type === "complement" && relationship.status === "active") {
      links.set(relationship.targetOrg.id, relationship.id);
    }
  }
  return links;
}

function PartnersSkeleton() {
  return (
    <div role="status" aria-label="Loading" className="grid gap-3">
      <Skeleton className="h-8 w-full" />
      {[0, 1, 2].map((row) => (
        <Skeleton key={row} className="h-12 w-full" />
      ))}
    </div>
  );
}

/**
 * CONTRACT §10 on the overview: per partner over the last 30 days, what the caller sent it and
 * what it received from it, the balance, the revenue per currency and the ad weight the Ads API uses
 * now. A table when the card is wide, stacked cards when it is not (a phone), both sortable.
 */
export function PartnersCard() {
  const ledger = usePartnersLedger(OVERVIEW_LEDGER_DAYS);
  // The same cache entry as the stat cards'; without it the names are simply not links.
  const relationships = useRelationshipList();
  const [sort, setSort] = useState<PartnerSort>(null);
  const buddyLinks = useMemo(() => activeBuddyLinks(relationships.data), [relationships.data]);
  const partners = useMemo(
    () => (ledger.data ? sortPartners(ledger.data.partners, sort) : []),
    [ledger.data, sort],
  );

  return (
    <Card data-testid="partners-card" className="gap-4">
      <CardHeader>
        <CardTitle>
          <h2>Partners</h2>
        </CardTitle>
        <CardDescription>
          Last {OVERVIEW_LEDGER_DAYS} days: the clicks and leads you sent each partner and those you received
          from it. The ad weight is the share of your newsletter ad slots its ads get, against ×1 for a Buddy
          with no history.
        </CardDescription>
      </CardHeader>
      <CardContent className="@container grid gap-4">
        {ledger.isPending ? (
          <PartnersSkeleton />
        ) : ledger.isError ? (
          <LoadError title={PARTNERS_LOAD_ERROR} error={ledger.error} onRetry={() => ledger.refetch()} />
        ) : partners.length === 0 ? (
          <p data-testid="partners-empty" className="text-muted-foreground text-sm">
            {NO_PARTNERS_TEXT}{" "}
            <Link to={paths.tools} className="underline underline-offset-2 hover:text-foreground">
              Add Buddies
            </Link>{" "}
            and share their ads: the clicks and leads you send each other show here.
          </p>
        ) : (
          <>
            <div className="hidden @3xl:block">
              <PartnersTable
                partners={partners}
                sort={sort}
                onSortBy={(key) => setSort(nextSort(sort, key))}
                buddyLinks={buddyLinks}
              />
            </div>
            <div className="@3xl:hidden">
              <PartnerCardList partners={partners} sort={sort} onSort={setSort} buddyLinks={buddyLinks} />
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
