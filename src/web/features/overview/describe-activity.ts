import { formatMoney } from "@shared/money";
import type { Activity } from "@shared/tracking";
import { once } from "@/lib/once";

export type ActivityItem = Activity[number];

/** The UI is English and its amounts read the same for every viewer (as the revenue card's). */
const MONEY_LOCALE = "en-US";

/** 'purchase' → 'Purchase'; a sale the server sent without its type is a 'Sale'. */
function capitalized(type: string | null): string {
  return type ? type.charAt(0).toUpperCase() + type.slice(1) : "Sale";
}

/** What a refund line says it was, by the refund's kind; an amount is always sent with one. */
function refundWords(kind: string | null, amount: string): string {
  switch (kind) {
    case "dispute":
      return amount ? `Dispute of ${amount}` : "Dispute";
    case "dispute_won":
      return amount ? `Dispute won: ${amount} back` : "Dispute won";
    default:
      return amount ? `Refund of ${amount}` : "Refund";
  }
}

/**
 * One readable line per event. "Sent" is from this organization's side: a click it sent went to the
 * partner whose ad it shared; a received lead came from a partner's link (CONTRACT §5 figures). A
 * sale names its amount ("Purchase of $49.99 from Quillmail"), as does a refund on one.
 */
export function describeActivity({ kind, organization, detail, amount }: ActivityItem): string {
  const name = organization.name;
  const lead = detail ? `Lead (${detail})` : "Lead";
  const money = amount ? formatMoney(amount.value, amount.currency, MONEY_LOCALE) : "";
  switch (kind) {
    case "click_sent":
      return `Click sent to ${name}`;
    case "click_received":
      return `Click received from ${name}`;
    case "lead_sent":
      return `${lead} sent to ${name}`;
    case "lead_received":
      return `${lead} received from ${name}`;
    case "sale_sent":
      return amount ? `${capitalized(detail)} of ${money} sent to ${name}` : `${lead} sent to ${name}`;
    case "sale_received":
      return amount ? `${capitalized(detail)} of ${money} from ${name}` : `${lead} received from ${name}`;
    case "refund_sent":
      return `${refundWords(detail, money)} on a sale sent to ${name}`;
    case "refund_received":
      return `${refundWords(detail, money)} on a sale from ${name}`;
    case "new_buddy":
      return `New Buddy: ${name}`;
  }
}

/** The UI is English; a fixed locale keeps the wording the same for every viewer. */
const relative = once(() => new Intl.RelativeTimeFormat("en", { numeric: "auto" }));
const absolute = once(() => new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }));

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** 'just now', '5 minutes ago', 'yesterday', '3 weeks ago'. A future time (clock skew) is 'just now'. */
export function formatRelativeTime(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (Number.isNaN(seconds)) return iso;
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return relative().format(-Math.floor(seconds / size), unit);
  }
  return "just now";
}

export function formatAbsoluteTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : absolute().format(date);
}
