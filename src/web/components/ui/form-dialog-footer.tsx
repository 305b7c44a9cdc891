import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";

type FormDialogFooterProps = {
  /** The submit button's text. */
  submitLabel: ReactNode;
  /** While the request runs, the submit button is busy (spinner, aria-busy) and disabled. */
  pending: boolean;
  /** Disables the submit button for another reason too (e.g. while AI generation runs). */
  submitDisabled?: boolean;
  onCancel: () => void;
  /** A dialog that must not close mid-request disables its Cancel button meanwhile. */
  cancelDisabled?: boolean;
  /** The request's failure, shown above the buttons; nothing is rendered without one. */
  error?: string | null;
};

/** A form dialog's last rows: its error line, then Cancel and the submit button. */
function FormDialogFooter({
  submitLabel,
  pending,
  submitDisabled = false,
  onCancel,
  cancelDisabled = false,
  error,
}: FormDialogFooterProps) {
  return (
    <>
      <FormMessage role="alert">{error}</FormMessage>
      <DialogFooter>
        <Button type="button" variant="outline" disabled={cancelDisabled} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending || submitDisabled} aria-busy={pending}>
          {pending ? <Spinner /> : null}
          {submitLabel}
        </Button>
      </DialogFooter>
    </>
  );
}

export { FormDialogFooter };
