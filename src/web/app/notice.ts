/** A notice to show once the app is up, across the page load from the sign-in page. */
export type Notice = { kind: "success" | "error"; message: string };

// sessionStorage, not localStorage: this tab only, and untouched by a sign-in's clearing (SPEC §4).
const NOTICE_KEY = "buddy:notice";

export function saveNotice(notice: Notice) {
  sessionStorage.setItem(NOTICE_KEY, JSON.stringify(notice));
}

/** The saved notice, once: reading it removes it. */
export function takeNotice(): Notice | undefined {
  const saved = sessionStorage.getItem(NOTICE_KEY);
  if (saved === null) return undefined;
  sessionStorage.removeItem(NOTICE_KEY);
  try {
    const notice = JSON.parse(saved) as Partial<Notice>;
    if ((notice.kind === "success" || notice.kind === "error") && typeof notice.message === "string")
      return { kind: notice.kind, message: notice.message };
  } catch {}
  return undefined;
}
