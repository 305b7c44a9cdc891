/** The UI is English; a fixed locale keeps dates the same for every viewer (e.g. 'Jan 15, 2025'). */
const DATE_FORMAT = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });

/** SPEC §2 API keys: created and last-used dates; a key never used says 'Never'. */
export function formatKeyDate(iso: string | null): string {
  if (!iso) return "Never";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE_FORMAT.format(date);
}
