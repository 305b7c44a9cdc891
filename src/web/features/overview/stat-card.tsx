import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { numberFormat } from "@/lib/number-format";

export type StatCardProps = {
  /** Stable id for tests and e2e selectors (`data-stat`), e.g. `clicks-sent`. */
  id: string;
  label: string;
  description: string;
  icon: LucideIcon;
  href: string;
  value: number | undefined;
  status: "pending" | "error" | "success";
  /** Shown under the number, above the card's link (the clicks cards' "Why?"). */
  details?: ReactNode;
};

/**
 * One overview number; the whole card links to the page where that number comes from (the link
 * covers the card), while `details` sit above the link so their button is not inside it.
 */
export function StatCard({
  id,
  label,
  description,
  icon: Icon,
  href,
  value,
  status,
  details,
}: StatCardProps) {
  return (
    <Card className="relative h-full gap-2 py-4 transition-colors has-[a:hover]:border-primary/40 has-[a:hover]:bg-accent/40">
      <Link
        to={href}
        data-testid="stat-card"
        data-stat={id}
        className="grid gap-2 rounded-xl outline-none after:absolute after:inset-0 after:rounded-xl focus-visible:after:ring-[3px] focus-visible:after:ring-ring/50"
      >
        <CardHeader className="flex items-center justify-between gap-2 px-4 sm:px-5">
          <CardTitle className="font-medium text-sm">{label}</CardTitle>
          <Icon aria-hidden="true" className="size-4 text-muted-foreground" />
        </CardHeader>
        <CardContent className="grid gap-1 px-4 sm:px-5">
          {status === "pending" ? (
            <Skeleton data-testid="stat-value-loading" className="h-8 w-16" />
          ) : (
            <p data-testid="stat-value" className="font-semibold text-2xl tabular-nums">
              {/* A failed source is explained once above the grid; the card only says it has no number. */}
              {status === "error" || value === undefined ? (
                <span title="Not available">—</span>
              ) : (
                numberFormat().format(value)
              )}
            </p>
          )}
          <p className="text-muted-foreground text-xs">{description}</p>
        </CardContent>
      </Link>
      {details ? <div className="relative z-10 px-4 sm:px-5">{details}</div> : null}
    </Card>
  );
}
