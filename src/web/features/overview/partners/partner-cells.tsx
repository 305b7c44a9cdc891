import type { PartnerLedger } from "@shared/reciprocity-schemas";
import { ArrowDownLeft, ArrowUpRight, Equal } from "lucide-react";
import { Link } from "react-router";
import { EmptyAmount } from "@/features/overview/empty-amount";
import {
  type BalanceTone,
  balanceTone,
  balanceWords,
  countOf,
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

/** The icons of the stat cards and the revenue card: sent goes up and out, received comes in. */
export const SIDE_ICONS = { sent: ArrowUpRight, received: ArrowDownLeft } as const;
/** The SPEC's cards' words (Clicks Sent, Clicks Received), on every screen that shows a side. */
export const SIDE_LABELS = { sent: "sent", received: "received" } as const;

/**
 * A balance's tone for the reader: the one who sent more is ahead (green, the sent icon), the one
 * who received more is behind and owes some back (amber, the received icon), even is muted. The
 * words say the same, so the colour is never the only sign.
 */
const TONES: Record<BalanceTone, { className: string; icon: typeof Equal }> = {
  ahead: { className: "text-success", icon: SIDE_ICONS.sent },
  behind: { className: "text-amber-700 dark:text-amber-400", icon: SIDE_ICONS.received },
  even: { className: "text-muted-foreground", icon: Equal },
};

/** clicks received − clicks sent, in the reader's words ("Sent 4 more clicks") and tone. */
export function BalanceValue({ balance, className }: { balance: number; className?: string }) {
  const tone = balanceTone(balance);
  const Icon = TONES[tone].icon;
  return (
    <span data-tone={tone} className={cn("font-semibold", TONES[tone].className, className)}>
      {/* Inline, so a wrapped balance keeps its icon before its first word. */}
      <Icon aria-hidden="true" className="mr-1 inline size-3.5 align-[-0.125em]" />
      <span data-cell="balance" data-value={balance} className="tabular-nums">
        {balanceWords(balance)}
      </span>
    </span>
  );
}

function Amount({ side, amount }: { side: "sent" | "received"; amount: string | null }) {
  const Icon = SIDE_ICONS[side];
  return (
    <span data-side={side} className="inline-flex items-center gap-0.5 whitespace-nowrap">
      <Icon aria-hidden="true" className="size-3.5 text-muted-foreground" />
      <span className="sr-only">{SIDE_LABELS[side]} </span>
      <span data-amount="">{amount ?? <EmptyAmount />}</span>
    </span>
  );
}

/** One line per currency, sent then received (the empty amount on a side without any); one when no money changed hands. */
export function RevenueAmounts({ revenue }: { revenue: PartnerLedger["revenue"] }) {
  const lines: RevenueLine[] = revenueLines(revenue);
  if (lines.length === 0) {
    return (
      <span data-cell="revenue">
        <EmptyAmount />
      </span>
    );
  }
  return (
    <ul data-cell="revenue" className="grid gap-0.5 tabular-nums">
      {lines.map((line) => (
        <li
          key={line.currency}
          data-currency={line.currency}
          className="flex flex-wrap items-center gap-x-2 gap-y-0.5"
        >
          <Amount side="sent" amount={line.sent} />
          <Amount side="received" amount={line.received} />
        </li>
      ))}
    </ul>
  );
}
