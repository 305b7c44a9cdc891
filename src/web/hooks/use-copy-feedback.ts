import { useCallback, useEffect, useRef, useState } from "react";

/** SPEC §9: copy feedback ('Copied!') resets after 2 seconds. */
export const COPY_FEEDBACK_MS = 2000;

/**
 * Copies text to the clipboard and reports `copied` for a moment, so a button can say 'Copied!'.
 * `copy` rejects when the clipboard refuses, leaving the caller to say so its own way (SPEC §8
 * gives each copy action its own failure text). `markCopied` starts the same moment for a caller
 * that wrote to the clipboard itself (the collateral snippets write rich HTML).
 */
export function useCopyFeedback(resetAfterMs: number = COPY_FEEDBACK_MS) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const markCopied = useCallback(() => {
    setCopied(true);
    // A second copy within the window restarts it rather than being cut short by the first.
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), resetAfterMs);
  }, [resetAfterMs]);

  const copy = useCallback(
    async (text: string) => {
      await navigator.clipboard.writeText(text);
      markCopied();
    },
    [markCopied],
  );

  return { copied, copy, markCopied };
}
