import { ChevronDown } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { UNCOUNTED_DAYS, useUncountedClicks } from "@/features/overview/api";
import { describeUncounted } from "@/features/overview/describe-uncounted";
import { cn } from "@/lib/utils";

/**
 * A clicks card's "Why?": on demand, how many clicks of the last 30 days did not count and why
 * (CONTRACT §5), in plain words. Fetched on first opening only.
 */
export function UncountedClicks({ direction }: { direction: "sent" | "received" }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const uncounted = useUncountedClicks(open);
  let text = "Loading…";
  if (uncounted.isError) text = "Could not load why clicks did not count.";
  else if (uncounted.data) text = describeUncounted(uncounted.data[direction], direction);
  return (
    <div className="grid gap-1" data-testid="uncounted-clicks" data-direction={direction}>
      <Button
        type="button"
        variant="link"
        size="sm"
        className="h-6 justify-self-start px-0 text-muted-foreground text-xs has-[>svg]:px-0"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        Why?
        <ChevronDown aria-hidden="true" className={cn("size-3 transition-transform", open && "rotate-180")} />
      </Button>
      {open ? (
        <p
          id={panelId}
          data-testid="uncounted-clicks-text"
          aria-live="polite"
          className="text-xs leading-snug"
        >
          {text}
          <span className="block text-muted-foreground">Last {UNCOUNTED_DAYS} days</span>
        </p>
      ) : null}
    </div>
  );
}
