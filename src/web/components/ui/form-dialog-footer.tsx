import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { DialogClose, DialogFooter } from "@/components/ui/dialog";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";

type FormDialogFooterProps = {
  /** The submit button's text. */
  submitLabel: ReactNode;
  /** While the request runs, the submit button is busy (spinner, aria-busy) and disabled. */
  pending: boolean;
  /** Disables the submit button for another reason too (e.g. while AI generation runs). */
  submitDisabled?: boolean;
  /** Disables Cancel; by default while the request runs, so the dialog waits for its answer. */
  cancelDisabled?: boolean;
  /** The request's failure, shown above the buttons; nothing is rendered without one. */
  error?: string | null;
};

/**
 * A form dialog's last rows: its error line, then Cancel and the submit button. Cancel closes the
 * dialog through its `onOpenChange(false)`, the same way as Esc, the overlay and the × button.
 */
function FormDialogFooter({
  submitLabel,
  pending,
  submitDisabled = false,
  cancelDisabled = pending,
  error,
}: FormDialogFooterProps) {
  return (
    <>
      <FormMessage role="alert">{error}</FormMessage>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline" disabled={cancelDisabled}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={pending || submitDisabled} aria-busy={pending}>
          {pending ? <Spinner /> : null}
          {submitLabel}
        </Button>
      </DialogFooter>
    </>
  );
}

export { FormDialogFooter };
