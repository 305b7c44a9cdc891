import type { ReactNode } from "react";
import { FormMessage } from "@/components/ui/form-message";
import { Label } from "@/components/ui/label";

/** Label row, the control, and the zod message underneath. */
export function FieldFrame({
  id,
  messageId,
  error,
  label,
  labelAction,
  children,
}: {
  id: string;
  messageId: string;
  error: string | undefined;
  label: string;
  labelAction?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div data-slot="form-field" className="grid gap-2">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        {labelAction}
      </div>
      {children}
      <FormMessage id={messageId}>{error}</FormMessage>
    </div>
  );
}
