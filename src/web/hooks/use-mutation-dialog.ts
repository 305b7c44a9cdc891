import { useState } from "react";

/**
 * The open state of a dialog that sends one request (create a key, add an endpoint, revoke,
 * delete, rotate). It stays open while the request runs, so an answer shown once (a new secret)
 * or a failure to retry is never lost, and each opening starts afresh: closing forgets the
 * request's answer and error, and `onClose` clears the rest (a form, the secret on screen).
 */
export function useMutationDialog(
  mutation: { isPending: boolean; reset: () => void },
  onClose?: () => void,
): [open: boolean, changeOpen: (next: boolean) => void] {
  const [open, setOpen] = useState(false);
  const changeOpen = (next: boolean) => {
    if (mutation.isPending) return;
    setOpen(next);
    if (!next) {
      mutation.reset();
      onClose?.();
    }
  };
  return [open, changeOpen];
}
