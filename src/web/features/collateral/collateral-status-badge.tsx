import type { CollateralStatus } from "@shared/collateral";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";

/**
 * The same palette as relationship badges (SPEC §4): active green, archived yellow, and a draft
 * grey like any other not-yet-live state.
 */
const STATUS_CLASSES: Record<CollateralStatus, string> = {
  active: "bg-emerald-100 text-emerald-800",
  draft: "bg-muted text-muted-foreground",
  archived: "bg-amber-100 text-amber-800",
};

export function CollateralStatusBadge({ status }: { status: CollateralStatus }) {
  return (
    <Badge
      data-testid="collateral-status"
      data-status={status}
      className={cn("border-transparent capitalize", STATUS_CLASSES[status])}
    >
      {status}
    </Badge>
  );
}
