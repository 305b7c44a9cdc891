import { cn } from "@/lib/utils";

/** How every figure of money writes "nothing here": the revenue card, the partners and the ledger. */
export const EMPTY_AMOUNT = "—";

/**
 * An amount that is not there (no sale on that side, or in that currency): one dash wherever money
 * shows, never "$0.00", which would pick a currency for nothing and read like a refunded sale. The
 * dash is hidden from screen readers, which hear "none" instead.
 */
export function EmptyAmount({ className }: { className?: string }) {
  return (
    <span data-empty-amount="" className={cn("text-muted-foreground", className)}>
      <span aria-hidden="true">{EMPTY_AMOUNT}</span>
      <span className="sr-only">none</span>
    </span>
  );
}
