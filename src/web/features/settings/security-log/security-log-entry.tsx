import { SECURITY_LOG_LABELS, type SecurityLogEntry } from "@shared/security-log";

/** In the viewer's zone, named, since admins may read it from several: 'Mar 2, 2026, 2:05:09 PM GMT+1'. */
const TIME_FORMAT = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "long" });

function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : TIME_FORMAT.format(date);
}

/** An entry that names no one: its actor's account was gone by the time it was written. */
export const FORMER_MEMBER = "Someone no longer on the team";

/**
 * One entry: what happened and to what, who did it and from which client address, and when.
 * Addresses and URLs break anywhere, so a long one never widens a phone's screen.
 */
export function SecurityLogEntryRow({ entry }: { entry: SecurityLogEntry }) {
  return (
    <li
      data-testid="security-log-entry"
      className="flex flex-col gap-1 p-4 sm:flex-row sm:items-start sm:justify-between sm:gap-6"
    >
      <div className="grid min-w-0 gap-1 [overflow-wrap:anywhere]">
        <p className="font-medium" data-testid="security-log-action">
          {SECURITY_LOG_LABELS[entry.action]}
        </p>
        {entry.target ? (
          <p className="text-sm" data-testid="security-log-target">
            {entry.target}
          </p>
        ) : null}
        <p className="text-muted-foreground text-sm">
          By <span data-testid="security-log-actor">{entry.actorEmail ?? FORMER_MEMBER}</span>
          {entry.ipAddress ? (
            <>
              {" · from "}
              <span data-testid="security-log-address">{entry.ipAddress}</span>
            </>
          ) : null}
        </p>
      </div>
      <time dateTime={entry.createdAt} className="shrink-0 text-muted-foreground text-sm sm:text-right">
        {formatTime(entry.createdAt)}
      </time>
    </li>
  );
}
