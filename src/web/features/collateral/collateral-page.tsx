import { type Collateral, sortCollateral } from "@shared/collateral";
import { Megaphone, Plus } from "lucide-react";
import { useState } from "react";
import { CardGridSkeleton } from "@/components/card-grid-skeleton";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/layout/page-header";
import { QueryError } from "@/components/query-error";
import { Button } from "@/components/ui/button";
import { useOwnCollateral } from "@/features/collateral/api";
import { CollateralCard } from "@/features/collateral/collateral-card";
import { CollateralDialog } from "@/features/collateral/collateral-dialog";

const EMPTY_TEXT = "No collateral yet. Create your first call-to-action ad for your Buddies to share.";

/** Closed, or open for a new item (null) or for editing one. */
type DialogState = { open: false } | { open: true; collateral: Collateral | null };

function NewCollateralButton({ onClick }: { onClick: () => void }) {
  return (
    <Button onClick={onClick}>
      <Plus />
      New Collateral
    </Button>
  );
}

/** SPEC §2 Marketing Collateral (/dashboard/marketing). */
export function CollateralPage() {
  const collateral = useOwnCollateral();
  const [dialog, setDialog] = useState<DialogState>({ open: false });
  const openNew = () => setDialog({ open: true, collateral: null });
  const openEdit = (item: Collateral) => setDialog({ open: true, collateral: item });
  // The server sorts already; sorting again keeps the SPEC order if a refresh ever races a toggle.
  const items = sortCollateral(collateral.data ?? []);
  const isEmpty = collateral.isSuccess && items.length === 0;

  return (
    <div className="grid gap-6">
      {/* When empty, the one 'New Collateral' button sits in the empty state instead. */}
      <PageHeader
        title="Marketing Collateral"
        description="Call-to-action ads your Buddies can share with their customers."
      >
        {isEmpty ? null : <NewCollateralButton onClick={openNew} />}
      </PageHeader>
      {collateral.isPending ? (
        <CardGridSkeleton />
      ) : collateral.isError ? (
        <QueryError
          title="Failed to fetch collateral"
          error={collateral.error}
          onRetry={() => collateral.refetch()}
        />
      ) : isEmpty ? (
        <EmptyState icon={Megaphone} description={EMPTY_TEXT}>
          <NewCollateralButton onClick={openNew} />
        </EmptyState>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {items.map((item) => (
            <CollateralCard key={item.id} collateral={item} onEdit={openEdit} />
          ))}
        </div>
      )}
      {dialog.open ? (
        <CollateralDialog collateral={dialog.collateral} onClose={() => setDialog({ open: false })} />
      ) : null}
    </div>
  );
}
