/** A fixed locale, as the API keys' dates; seconds count here (retries follow 5 s apart). */
const TIME_FORMAT = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "medium" });

/** An ISO time in the viewer's zone, e.g. 'Mar 2, 2026, 2:05:09 PM'. */
export function formatWebhookTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : TIME_FORMAT.format(date);
}
