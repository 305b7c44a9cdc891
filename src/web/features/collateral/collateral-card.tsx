import type { Collateral } from "@shared/collateral";
import { Archive, Pencil, Send } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader } from "@/components/ui/card";
import { useSetCollateralStatus } from "@/features/collateral/api";
import { CollateralPreview } from "@/features/collateral/collateral-preview";
import { toggledStatus, toggleLabel } from "@/features/collateral/collateral-status";
import { CollateralStatusBadge } from "@/features/collateral/collateral-status-badge";
import { CollateralTypeIcon } from "@/features/collateral/collateral-type-icon";
import { DeleteCollateralButton } from "@/features/collateral/delete-collateral-button";
import { cn } from "@/lib/utils";

type CollateralCardProps = {
  collateral: Collateral;
  onEdit: (collateral: Collateral) => void;
};

/** One item of the Marketing Collateral grid (SPEC §2): type, status, preview and its actions. */
export function CollateralCard({ collateral, onEdit }: CollateralCardProps) {
  const setStatus = useSetCollateralStatus();
  const { status } = collateral;
  const label = toggleLabel(status);

  return (
    <Card
      data-testid="collateral-card"
      data-status={status}
      // SPEC §2: archived items stay listed, last and dimmed.
      className={cn("gap-4 py-5", status === "archived" && "opacity-60")}
    >
      <CardHeader className="flex items-center justify-between gap-3 px-5">
        <CollateralTypeIcon type={collateral.type} />
        <CollateralStatusBadge status={status} />
      </CardHeader>
      <CardContent className="flex-1 px-5">
        <CollateralPreview collateral={collateral} />
      </CardContent>
      <CardFooter className="flex-wrap gap-2 px-5">
        <Button variant="outline" size="sm" onClick={() => onEdit(collateral)}>
          <Pencil />
          Edit
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={setStatus.isPending}
          aria-busy={setStatus.isPending}
          onClick={() => setStatus.mutate({ id: collateral.id, status: toggledStatus(status) })}
        >
          {label === "Archive" ? <Archive /> : <Send />}
          {label}
        </Button>
        <DeleteCollateralButton collateral={collateral} />
      </CardFooter>
    </Card>
  );
}
