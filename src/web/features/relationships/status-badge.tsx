import { type RelationshipStatus, STATUS_BADGE } from "@shared/relationships";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";

const COLOUR_CLASSES: Record<(typeof STATUS_BADGE)[RelationshipStatus], string> = {
  green: "bg-emerald-100 text-emerald-800",
  yellow: "bg-amber-100 text-amber-800",
  blue: "bg-sky-100 text-sky-800",
  grey: "bg-muted text-muted-foreground",
};

/** SPEC §4 relationship status badge: active green, archived yellow, suggested blue, other grey. */
export function StatusBadge({ status }: { status: RelationshipStatus }) {
  const colour = STATUS_BADGE[status] ?? "grey";
  return (
    <Badge
      data-testid="status-badge"
      data-colour={colour}
      className={cn("border-transparent capitalize", COLOUR_CLASSES[colour])}
    >
      {status}
    </Badge>
  );
}
