import { KeyRound, LockOpen } from "lucide-react";
import { Badge } from "@/components/ui/badge";

export const NEEDS_KEY_TEXT = "Requires API key";
export const NO_KEY_TEXT = "No key needed";

/** SPEC §6 per operation, decided by the document's `security`, never by a list kept here. */
export function KeyBadge({ needsApiKey }: { needsApiKey: boolean }) {
  return needsApiKey ? (
    <Badge
      data-testid="key-badge"
      data-needs-key="true"
      className="border-transparent bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100"
    >
      <KeyRound aria-hidden="true" />
      {NEEDS_KEY_TEXT}
    </Badge>
  ) : (
    <Badge
      data-testid="key-badge"
      data-needs-key="false"
      className="border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-900/40 dark:text-emerald-100"
    >
      <LockOpen aria-hidden="true" />
      {NO_KEY_TEXT}
    </Badge>
  );
}
