import type { Collateral } from "@shared/collateral";
import { Trash2 } from "lucide-react";
import { useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Button } from "@/components/ui/button";
import { useDeleteCollateral } from "@/features/collateral/api";

/** Delete asks first: the item and its share snippets stop working for good. */
export function DeleteCollateralButton({ collateral }: { collateral: Collateral }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteCollateral();

  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="text-destructive hover:text-destructive"
        onClick={() => setOpen(true)}
      >
        <Trash2 />
        Delete
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Delete Collateral"
        description={`Are you sure you want to delete "${collateral.name}"? This action cannot be undone.`}
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => remove.mutate(collateral.id, { onSuccess: () => setOpen(false) })}
      />
    </>
  );
}
