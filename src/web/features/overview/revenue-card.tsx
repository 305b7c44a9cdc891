import type { RevenueTotal } from "@shared/tracking";
import { ArrowDownLeft, ArrowUpRight, type LucideIcon } from "lucide-react";
import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useRevenue } from "@/features/overview/api";
import { EmptyAmount } from "@/features/overview/empty-amount";
import { LoadError } from "@/features/overview/load-error";
import { revenueCardLines } from "@/features/overview/revenue-lines";
import { paths } from "@/lib/paths";

/** No SPEC §8 text for this load; worded like the others. */
export const REVENUE_LOAD_ERROR = "Failed to fetch revenue";
/** What the amounts are, in the server's terms (CONTRACT §8: net of refunds; a refunded sale stays a sale). */
export const REVENUE_NET_TEXT = "Net of refunds. A refunded sale still counts as a sale.";

function Side({
  id,
  label,
  description,
  icon: Icon,
  totals,
}: {
  id: "received" | "sent";
  label: string;
  description: string;
  icon: LucideIcon;
  totals: RevenueTotal[];
}) {
  const lines = revenueCardLines(totals);
  return (
    <section data-testid={`revenue-${id}`} aria-label={label} className="grid content-start gap-1.5">
      <h3 className="flex items-center gap-1.5 font-medium text-sm">
        <Icon aria-hidden="true" className="size-4 text-muted-foreground" />
        {label}
      </h3>
      {lines.length === 0 ? (
        <p className="font-semibold text-2xl tabular-nums">
          <EmptyAmount />
        </p>
      ) : (
        // Per currency, the most sales first; each amount with the count of sales that made it.
        <ul className="grid gap-0.5">
          {lines.map((line) => (
            <li
              key={line.currency}
              data-testid="revenue-line"
              data-currency={line.currency}
              className="flex flex-wrap items-baseline gap-x-2"
            >
              <span data-testid="revenue-amount" className="break-words font-semibold text-2xl tabular-nums">
                {line.amount}
              </span>
              <span data-testid="revenue-sales" className="text-muted-foreground text-sm tabular-nums">
                {line.sales}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="text-muted-foreground text-xs">{description}</p>
    </section>
  );
}

/**
 * CONTRACT §8: what partnerships earned, both ways, one line per currency and never converted.
 * On the overview for every partner; on a Buddy's page (`partner`) for that pair alone.
 */
export function RevenueCard({ partner }: { partner?: { id: string; name: string } }) {
  const revenue = useRevenue(partner?.id);
  const empty = revenue.data !== undefined && revenue.data.sent.length + revenue.data.received.length === 0;
  return (
    <Card data-testid="revenue-card" className="gap-4">
      <CardHeader>
        <CardTitle>
          <h2>{partner ? `Revenue with ${partner.name}` : "Revenue"}</h2>
        </CardTitle>
        <CardDescription>
          {partner
            ? `Purchases ${partner.name} brought you, and purchases you brought them`
            : "Purchases your Buddies brought you, and purchases you brought them"}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {revenue.isPending ? (
          <Skeleton role="status" aria-label="Loading" className="h-20 w-full" />
        ) : revenue.isError ? (
          <LoadError title={REVENUE_LOAD_ERROR} error={revenue.error} onRetry={() => revenue.refetch()} />
        ) : (
          <>
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              <Side
                id="received"
                label="Received"
                description={
                  partner ? `From ${partner.name}'s links to you` : "From your Buddies' links to you"
                }
                icon={ArrowDownLeft}
                totals={revenue.data.received}
              />
              <Side
                id="sent"
                label="Sent"
                description={
                  partner ? `From your links to ${partner.name}` : "From your links to your Buddies"
                }
                icon={ArrowUpRight}
                totals={revenue.data.sent}
              />
            </div>
            {empty ? null : <p className="text-muted-foreground text-xs">{REVENUE_NET_TEXT}</p>}
            {empty ? (
              <p className="text-muted-foreground text-sm">
                No revenue yet. Send a value with your conversions, or{" "}
                <Link
                  to={`${paths.settings}?tab=install`}
                  className="underline underline-offset-2 hover:text-foreground"
                >
                  connect Stripe
                </Link>
                .
              </p>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
