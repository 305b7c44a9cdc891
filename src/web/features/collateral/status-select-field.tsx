import { COLLATERAL_STATUSES } from "@shared/collateral";
import { useId } from "react";
import { useController } from "react-hook-form";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { CollateralFormControl } from "@/features/collateral/collateral-form";

const STATUS_LABELS: Record<(typeof COLLATERAL_STATUSES)[number], string> = {
  draft: "Draft",
  active: "Active",
  archived: "Archived",
};

/** SPEC §4: besides the card's toggle, the edit form can set any status. */
export function StatusSelectField({ control }: { control: CollateralFormControl }) {
  const { field } = useController({ control, name: "status" });
  const id = useId();
  return (
    <div data-slot="form-field" className="grid gap-2">
      <Label htmlFor={id}>Status</Label>
      <Select value={field.value ?? "draft"} onValueChange={field.onChange} disabled={field.disabled}>
        <SelectTrigger id={id} ref={field.ref} onBlur={field.onBlur}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {COLLATERAL_STATUSES.map((status) => (
            <SelectItem key={status} value={status}>
              {STATUS_LABELS[status]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
