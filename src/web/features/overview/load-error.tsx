import { TriangleAlert } from "lucide-react";
import { Button } from "@/components/ui/button";

type LoadErrorProps = {
  /** The SPEC §8 load error, e.g. 'Failed to fetch clicks metrics'. */
  title: string;
  error: unknown;
  onRetry: () => void;
};

/**
 * A failed load inside an overview card. The shared QueryError is a page-sized panel; here one
 * failing source must not push the other cards away, so the same content sits in one compact row.
 */
export function LoadError({ title, error, onRetry }: LoadErrorProps) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm"
    >
      <TriangleAlert aria-hidden="true" className="size-4 shrink-0 text-destructive" />
      <div className="grid min-w-0 flex-1 gap-0.5">
        <p className="font-medium">{title}</p>
        {error instanceof Error ? (
          <p className="break-words text-muted-foreground text-xs">{error.message}</p>
        ) : null}
      </div>
      <Button type="button" variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
