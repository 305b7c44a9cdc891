import { formatMoney } from "@shared/money";
import { AD_WEIGHT_MAX, AD_WEIGHT_MIN, adWeight } from "@shared/reciprocity";
import type { PartnerLedger } from "@shared/reciprocity-schemas";
import { numberFormat } from "@/lib/number-format";
import { once } from "@/lib/once";

/** Amounts read the same way as the revenue card's (en-US, whatever the viewer's locale). */
const LOCALE = "en-US";

/** What a partner's row can be sorted by; revenue cannot: currencies are never added (CONTRACT §8). */
export const PARTNER_SORT_KEYS = ["name", "sent", "received", "balance", "adWeight"] as const;
export type PartnerSortKey = (typeof PARTNER_SORT_KEYS)[number];
export type SortDirection = "ascending" | "descending";
/** `null`: the server's order, most clicks either way first (CONTRACT §10). */
export type PartnerSort = { key: PartnerSortKey; direction: SortDirection } | null;

const COMPARE: Record<PartnerSortKey, (a: PartnerLedger, b: PartnerLedger) => number> = {
  name: (a, b) => a.name.localeCompare(b.name, LOCALE, { sensitivity: "base" }),
  sent: (a, b) => a.clicks.sent - b.clicks.sent || a.leads.sent - b.leads.sent,
  received: (a, b) => a.clicks.received - b.clicks.received || a.leads.received - b.leads.received,
  balance: (a, b) => a.balance - b.balance,
  adWeight: (a, b) => a.adWeight - b.adWeight,
};

/** The partners in `sort`'s order; ties keep the server's order, whichever the direction. */
export function sortPartners(partners: readonly PartnerLedger[], sort: PartnerSort): PartnerLedger[] {
  if (sort === null) return [...partners];
  const compare = COMPARE[sort.key];
  const sign = sort.direction === "ascending" ? 1 : -1;
  return partners
    .map((partner, index) => ({ partner, index }))
    .sort((a, b) => sign * compare(a.partner, b.partner) || a.index - b.index)
    .map(({ partner }) => partner);
}

/**
 * A header's click: a new column starts where it is most useful (names A to Z, figures largest
 * first), the sorted column flips.
 */
export function nextSort(current: PartnerSort, key: PartnerSortKey): PartnerSort {
  if (current?.key === key) {
    return { key, direction: current.direction === "ascending" ? "descending" : "ascending" };
  }
  return { key, direction: key === "name" ? "ascending" : "descending" };
}

/**
 * The ledger entry of one partner, or zeros when the list does not hold it (no traffic in the
 * window and not a Buddy of the caller's): then its weight is the one of no history.
 */
export function partnerEntry(
  partners: readonly PartnerLedger[],
  partner: { id: string; name: string },
): PartnerLedger {
  const found = partners.find((entry) => entry.organizationId === partner.id);
  if (found) return found;
  const clicks = { sent: 0, received: 0 };
  return {
    organizationId: partner.id,
    name: partner.name,
    clicks,
    leads: { sent: 0, received: 0 },
    revenue: { sent: [], received: [] },
    balance: 0,
    adWeight: adWeight(clicks),
  };
}

export function formatCount(value: number): string {
  return numberFormat().format(value);
}

const signedFormat = once(() => new Intl.NumberFormat(LOCALE, { signDisplay: "exceptZero" }));

/** "+40", "-12", "0". */
export function formatBalance(balance: number): string {
  return signedFormat().format(balance);
}

/**
 * What a balance (clicks received − clicks sent) means to the reader: `ahead` when they sent more
 * than they received (nothing to worry about: they gave), `behind` when they received more (they
 * owe the partner some clicks back), `even` otherwise. The tone colours it; the words say it too.
 */
export type BalanceTone = "ahead" | "behind" | "even";

export function balanceTone(balance: number): BalanceTone {
  return balance < 0 ? "ahead" : balance > 0 ? "behind" : "even";
}

/** A balance in the reader's words, with the SPEC's Sent and Received: "Sent 4 more clicks". */
export function balanceWords(balance: number): string {
  const clicks = (n: number) => `${formatCount(n)} more ${n === 1 ? "click" : "clicks"}`;
  if (balance < 0) return `Sent ${clicks(-balance)}`;
  if (balance > 0) return `Received ${clicks(balance)}`;
  return "Even";
}

/** A count and its noun: "1 click", "1,204 leads", "3 sales". */
export function countOf(value: number, noun: "click" | "lead" | "sale"): string {
  return `${formatCount(value)} ${value === 1 ? noun : `${noun}s`}`;
}

const weightFormat = once(() => new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 }));

/** "×1.9", "×0.25", "×4". */
export function formatAdWeight(weight: number): string {
  return `×${weightFormat().format(weight)}`;
}

/**
 * The ad weight in plain words. The Ads API draws a partner with a probability proportional to its
 * weight (docs/decisions.md, "The rotation"), so a weight of 1.4 is 1.4 times the share of the
 * caller's ad slots that a Buddy with no history (weight 1) gets: "Quillmail's ads get 1.4× the
 * usual share of your newsletter ad slots".
 */
export function adWeightSentence(name: string, weight: number): string {
  const factor = weightFormat().format(weight);
  return factor === "1"
    ? `${name}'s ads get the usual share of your newsletter ad slots`
    : `${name}'s ads get ${factor}× the usual share of your newsletter ad slots`;
}

/** What "the usual share" is, and what moves a weight (CONTRACT §10, `adWeight`). */
export function adWeightBasis(days: number): string {
  return `The usual share is a Buddy's with no history. It follows the last ${days} days: the clicks you sent each other, and the leads and sales each of you recorded with its own API key or Stripe.`;
}

/**
 * Where a weight sits on its scale, from 0 (AD_WEIGHT_MIN) to 1 (AD_WEIGHT_MAX). The scale is
 * logarithmic: the bounds are ×¼ and ×4, so ×1 (no history, or as much sent as received) sits in
 * the middle and halving a weight moves it as far as doubling it.
 */
export function adWeightPosition(weight: number): number {
  const low = Math.log(AD_WEIGHT_MIN);
  const high = Math.log(AD_WEIGHT_MAX);
  const clamped = Math.min(AD_WEIGHT_MAX, Math.max(AD_WEIGHT_MIN, weight));
  return (Math.log(clamped) - low) / (high - low);
}

/** One currency of a partner's revenue, both ways: `null` on a side without any (shown as the empty amount). */
export type RevenueLine = { currency: string; sent: string | null; received: string | null };

/** The currencies of a partner's revenue in either direction, sorted, each with both amounts formatted. */
export function revenueLines(revenue: PartnerLedger["revenue"]): RevenueLine[] {
  const currencies = [
    ...new Set([...revenue.sent, ...revenue.received].map((total) => total.currency)),
  ].sort();
  const amount = (totals: PartnerLedger["revenue"]["sent"], currency: string) => {
    const total = totals.find((entry) => entry.currency === currency);
    return total ? formatMoney(total.value, currency, LOCALE) : null;
  };
  return currencies.map((currency) => ({
    currency,
    sent: amount(revenue.sent, currency),
    received: amount(revenue.received, currency),
  }));
}
