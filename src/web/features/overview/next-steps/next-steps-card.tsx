import { ChevronRight, Circle, CircleCheck } from "lucide-react";
import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useNextSteps } from "@/features/overview/next-steps/api";
import { NEXT_STEP_LINKS } from "@/features/overview/next-steps/next-step-links";
import { cn } from "@/lib/utils";

/**
 * What to do after set-up to take part in the network (issue 37). Each step ticks itself from the
 * organization's data; the card goes once all are done. While it loads or if it fails it shows
 * nothing: it is a guide, not a figure, and the rest of the overview does not wait for it.
 */
export function NextStepsCard() {
  const nextSteps = useNextSteps();
  const steps = nextSteps.data?.steps;
  if (!steps || steps.every((step) => step.done)) return null;
  const done = steps.filter((step) => step.done).length;

  return (
    <Card data-testid="next-steps" className="gap-3 py-4">
      <CardHeader className="px-4 sm:px-6">
        <CardTitle>
          <h2>Next steps</h2>
        </CardTitle>
        <CardDescription>
          {done} of {steps.length} done. Each step ticks itself off once Buddy sees it happen.
        </CardDescription>
      </CardHeader>
      <CardContent className="px-2 sm:px-4">
        <ol className="grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
          {steps.map((step) => {
            const link = NEXT_STEP_LINKS[step.id];
            return (
              <li key={step.id} data-testid="next-step" data-step={step.id} data-done={step.done}>
                <Link
                  to={link.href}
                  aria-label={`${link.label}, ${step.done ? "done" : "to do"}`}
                  aria-describedby={`next-step-${step.id}`}
                  className={cn(
                    "flex h-full items-start gap-3 rounded-md px-2 py-2 outline-none transition-colors",
                    "hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50",
                  )}
                >
                  {step.done ? (
                    <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
                  ) : (
                    <Circle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                  )}
                  <span className="grid min-w-0 flex-1 gap-0.5">
                    <span
                      className={cn("font-medium text-sm", step.done && "text-muted-foreground line-through")}
                    >
                      {link.label}
                    </span>
                    <span id={`next-step-${step.id}`} className="text-muted-foreground text-xs">
                      {link.hint}
                    </span>
                  </span>
                  <ChevronRight aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                </Link>
              </li>
            );
          })}
        </ol>
      </CardContent>
    </Card>
  );
}
