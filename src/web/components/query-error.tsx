import { TriangleAlert } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { Button } from "@/components/ui/button";

type QueryErrorProps = {
  /** The SPEC §8 load error, e.g. 'Failed to fetch relationships'. */
  title: string;
  error: unknown;
  onRetry?: () => void;
};

/** A failed load: the SPEC text, the underlying message (SPEC §8 default GET failure), a retry. */
export function QueryError({ title, error, onRetry }: QueryErrorProps) {
  return (
    <div role="alert">
      <EmptyState
        icon={TriangleAlert}
        title={title}
        description={error instanceof Error ? error.message : undefined}
      >
        {onRetry ? (
          <Button variant="outline" onClick={onRetry}>
            Try again
          </Button>
        ) : null}
      </EmptyState>
    </div>
  );
}
