/**
 * A notice mail's link into a signed-in page ("Add back", "Add to block list": `?add=`) opened
 * while signed out: kept in this tab across the sign-in, so the person lands where the mail
 * pointed rather than on the overview. Only such links, only under /dashboard/, for 15 minutes.
 */
const KEY = "buddy:notice-link";
const KEPT_MS = 15 * 60_000;

export function rememberNoticeLink(pathname: string, search: string): void {
  if (!pathname.startsWith("/dashboard/") || !new URLSearchParams(search).has("add")) return;
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ to: `${pathname}${search}`, at: Date.now() }));
  } catch {
    // Storage refused (private mode): the person lands on the overview, as before.
  }
}

/** The link kept before the sign-in, if it is recent. */
export function pendingNoticeLink(): string | null {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEY) ?? "null") as { to?: unknown; at?: unknown } | null;
    if (!kept || typeof kept.to !== "string" || typeof kept.at !== "number") return null;
    if (Date.now() - kept.at > KEPT_MS || !kept.to.startsWith("/dashboard/")) return null;
    return kept.to;
  } catch {
    return null;
  }
}

export function forgetNoticeLink(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}
