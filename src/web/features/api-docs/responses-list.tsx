import type { DocumentedResponse } from "@/features/api-docs/openapi-operations";
import { cn } from "@/lib/utils";

function statusColour(status: string): string {
  if (status.startsWith("2"))
    return "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100";
  if (status.startsWith("3")) return "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-100";
  return "bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-100";
}

export function ResponsesList({ responses }: { responses: DocumentedResponse[] }) {
  return (
    <ul data-testid="responses-list" className="grid gap-1.5">
      {responses.map((response) => (
        <li
          key={response.status}
          data-status={response.status}
          className="flex flex-wrap items-baseline gap-2 text-sm"
        >
          <span
            className={cn(
              "rounded px-1.5 py-0.5 font-mono font-semibold text-xs",
              statusColour(response.status),
            )}
          >
            {response.status}
          </span>
          {response.reason ? <span className="font-medium">{response.reason}</span> : null}
          {response.description ? (
            <span className="text-muted-foreground">{response.description}</span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
