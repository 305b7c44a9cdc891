import { formatMoney } from "@shared/money";
import type { RevenueTotal } from "@shared/tracking";
import { countOf } from "@/features/overview/partners/partner-figures";

/** Amounts read the same way as the other numbers of the dashboard (`lib/number-format.ts`). */
const LOCALE = "en-US";

/** One currency of the revenue card: its amount and how many sales made it. */
export type RevenueLine = { currency: string; amount: string; sales: string };

/**
 * A side's currencies, the largest first: the most sales, since amounts in different currencies
 * are never compared (CONTRACT §8); as many sales, by code, so the order is stable.
 */
export function revenueCardLines(totals: readonly RevenueTotal[]): RevenueLine[] {
  return [...totals]
    .sort((a, b) => b.sales - a.sales || a.currency.localeCompare(b.currency))
    .map((total) => ({
      currency: total.currency,
      amount: formatMoney(total.value, total.currency, LOCALE),
      sales: countOf(total.sales, "sale"),
    }));
}
