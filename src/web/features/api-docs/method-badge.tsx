import type { ReactNode } from "react";
import type { HttpMethod } from "@/features/api-docs/openapi-types";
import { cn } from "@/lib/utils";

const METHOD_COLOURS: Partial<Record<HttpMethod, string>> = {
  get: "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-100",
  post: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100",
  patch: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100",
  put: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100",
  delete: "bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-100",
};

export function MethodBadge({ method }: { method: HttpMethod }) {
  return (
    <span
      data-testid="operation-method"
      className={cn(
        "inline-flex shrink-0 rounded px-1.5 py-0.5 font-mono font-semibold text-xs",
        METHOD_COLOURS[method] ?? "bg-muted text-foreground",
      )}
    >
      {method.toUpperCase()}
    </span>
  );
}

/** A method and its path on one line, the path wrapping anywhere on a narrow screen. */
export function EndpointLine({
  method,
  children,
  testId,
}: {
  method: HttpMethod;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div className="flex min-w-0 items-start gap-2">
      <MethodBadge method={method} />
      <code data-testid={testId} className="min-w-0 break-all font-mono text-sm">
        {children}
      </code>
    </div>
  );
}
