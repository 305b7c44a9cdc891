/** The viewer's own zone and language: this is a time they compare with their Stripe dashboard's. */
const LOCAL_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * When Stripe's last signed event arrived: 'just now' or 'N minutes ago' within the hour (the
 * server notes it at most once a minute), else the local date and time.
 */
export function formatLastEventTime(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const ago = now - at;
  if (ago < MINUTE) return "just now";
  if (ago < HOUR) {
    const minutes = Math.floor(ago / MINUTE);
    return `${minutes} minute${minutes === 1 ? "" : "s"} ago`;
  }
  return LOCAL_TIME.format(at);
}
