import type { PartnerLedger } from "@shared/reciprocity";
import { ArrowDownLeft, ArrowUpRight } from "lucide-react";
import { Link } from "react-router";
import {
  countOf,
  formatBalance,
  type RevenueLine,
  revenueLines,
} from "@/features/overview/partners/partner-figures";
import { toolDetailPath } from "@/lib/paths";
import { cn } from "@/lib/utils";

/** The partner's name, leading to its Buddy page when the caller holds it as an active Buddy. */
export function PartnerName({ name, relationshipId }: { name: string; relationshipId: string | undefined }) {
  return relationshipId ? (
    <Link
      to={toolDetailPath(relationshipId)}
      data-cell="name"
      className="font-medium underline-offset-2 hover:underline focus-visible:underline"
    >
      {name}
    </Link>
  ) : (
    <span data-cell="name" className="font-medium">
      {name}
    </span>
  );
}

/** Clicks, then leads, of one direction: "52 clicks" over "5 leads". */
export function ClicksAndLeads({
  side,
  clicks,
  leads,
}: {
  side: "sent" | "received";
  clicks: number;
  leads: number;
}) {
  return (
    <span className="grid gap-0.5 tabular-nums">
      <span data-cell={`clicks-${side}`} data-value={clicks} className="font-medium">
        {countOf(clicks, "click")}
      </span>
      <span data-cell={`leads-${side}`} data-value={leads} className="text-muted-foreground text-xs">
        {countOf(leads, "lead")}
      </span>
    </span>
  );
}

/** clicks received − clicks sent, signed: green when the partner gave more, red when it got more. */
export function BalanceValue({ balance, className }: { balance: number; className?: string }) {
  return (
    <span
      data-cell="balance"
      data-value={balance}
      className={cn(
        "font-semibold tabular-nums",
        balance > 0 ? "text-success" : balance < 0 ? "text-destructive" : "text-muted-foreground",
        className,
      )}
    >
      {formatBalance(balance)}
    </span>
  );
}

/** The icons of the stat cards and the revenue card: given (sent) goes up and out, received comes in. */
export const SIDE_ICONS = { sent: ArrowUpRight, received: ArrowDownLeft } as const;
export const SIDE_LABELS = { sent: "given", received: "received" } as const;

function Amount({ side, amount, none }: { side: "sent" | "received"; amount: string; none: boolean }) {
  const Icon = SIDE_ICONS[side];
  return (
    <span
      data-side={side}
      className={cn("inline-flex items-center gap-0.5 whitespace-nowrap", none && "text-muted-foreground")}
    >
      <Icon aria-hidden="true" className="size-3.5 text-muted-foreground" />
      <span className="sr-only">{SIDE_LABELS[side]} </span>
      <span data-amount="">{amount}</span>
    </span>
  );
}

/** One line per currency, given then received (zero, dimmed, on a side without any); a dash when no money changed hands. */
export function RevenueAmounts({ revenue }: { revenue: PartnerLedger["revenue"] }) {
  const lines: RevenueLine[] = revenueLines(revenue);
  if (lines.length === 0) {
    return (
      <span data-cell="revenue" className="text-muted-foreground">
        <span title="No revenue yet">—</span>
      </span>
    );
  }
  const none = (side: "sent" | "received", currency: string) =>
    !revenue[side].some((total) => total.currency === currency);
  return (
    <ul data-cell="revenue" className="grid gap-0.5 tabular-nums">
      {lines.map((line) => (
        <li
          key={line.currency}
          data-currency={line.currency}
          className="flex flex-wrap items-center gap-x-2 gap-y-0.5"
        >
          <Amount side="sent" amount={line.sent} none={none("sent", line.currency)} />
          <Amount side="received" amount={line.received} none={none("received", line.currency)} />
        </li>
      ))}
    </ul>
  );
}
