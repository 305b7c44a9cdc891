import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/lib/utils";

type EmptyStateProps = {
  icon: LucideIcon;
  /** Optional: SPEC empty states are one sentence, shown as the description. */
  title?: string;
  description?: ReactNode;
  /** Buttons or links offered next (e.g. 'Add Tool'). */
  children?: ReactNode;
  className?: string;
};

/** The dashed panel a list or page shows when it has nothing yet. */
export function EmptyState({ icon: Icon, title, description, children, className }: EmptyStateProps) {
  return (
    <div
      data-testid="empty-state"
      className={cn(
        "flex flex-col items-center justify-center gap-3 rounded-xl border border-dashed px-6 py-12 text-center",
        className,
      )}
    >
      <div className="flex size-12 items-center justify-center rounded-full bg-accent text-accent-foreground">
        <Icon className="size-6" aria-hidden="true" />
      </div>
      {title ? <h2 className="font-semibold text-lg">{title}</h2> : null}
      {description ? <p className="max-w-md text-muted-foreground text-sm">{description}</p> : null}
      {children}
    </div>
  );
}
