import type { Activity } from "@shared/tracking";
import { once } from "@/lib/once";

export type ActivityItem = Activity[number];

/**
 * One readable line per event. "Sent" is from this organization's side: a click it sent went to the
 * partner whose ad it shared; a received lead came from a partner's link (CONTRACT §5 figures).
 */
export function describeActivity({ kind, organization, detail }: ActivityItem): string {
  const name = organization.name;
  const lead = detail ? `Lead (${detail})` : "Lead";
  switch (kind) {
    case "click_sent":
      return `Click sent to ${name}`;
    case "click_received":
      return `Click received from ${name}`;
    case "lead_sent":
      return `${lead} sent to ${name}`;
    case "lead_received":
      return `${lead} received from ${name}`;
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
