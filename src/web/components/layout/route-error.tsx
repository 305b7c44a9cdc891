import { TriangleAlert } from "lucide-react";
import { useEffect } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { EmptyState } from "@/components/empty-state";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

function describeError(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status}: ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return "Unknown error";
}

/**
 * A route's error element: a screen that crashes (or a lazy chunk that fails to load after a
 * deploy) shows this in its place, so the dashboard shell around it keeps working.
 */
export function RouteError({ fullPage = false }: { fullPage?: boolean }) {
  const error = useRouteError();
  useEffect(() => console.error(error), [error]);

  return (
    <div role="alert" className={cn(fullPage && "flex min-h-svh items-center justify-center p-4")}>
      <EmptyState icon={TriangleAlert} title="Something went wrong" description={describeError(error)}>
        <Button variant="outline" onClick={() => window.location.reload()}>
          Try again
        </Button>
      </EmptyState>
    </div>
  );
}
