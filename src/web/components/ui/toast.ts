import type { ExternalToast } from "sonner";

// Notices (SPEC §9) without sonner on the first screen: its code loads at the user's first press or
// key, or at the first notice (lazy-toaster.tsx), and a notice made meanwhile waits for the toaster.

type Kind = "success" | "error" | "warning";

const loadSonner = () => import("sonner");

let wanted = false;
const listeners = new Set<() => void>();
let listening: () => void = () => {};
const toasterListens = new Promise<void>((resolve) => {
  listening = resolve;
});

/** The toaster's mount, as `LazyToaster` reads it: wanted from the first action or notice on. */
export const toasterWanted = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  get: () => wanted,
};

export function wantToaster() {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

/** Called by `LazyToaster` once sonner's toaster has mounted: it shows only notices made after. */
export function toasterMounted() {
  listening();
}

function show(kind: Kind | "message", message: string, options?: ExternalToast) {
  wantToaster();
  void Promise.all([loadSonner(), toasterListens]).then(([{ toast }]) =>
    kind === "message" ? toast(message, options) : toast[kind](message, options),
  );
}

/** sonner's `toast`, as much of it as the app uses. */
export const toast = Object.assign(
  (message: string, options?: ExternalToast) => show("message", message, options),
  {
    success: (message: string, options?: ExternalToast) => show("success", message, options),
    error: (message: string, options?: ExternalToast) => show("error", message, options),
    warning: (message: string, options?: ExternalToast) => show("warning", message, options),
  },
);
