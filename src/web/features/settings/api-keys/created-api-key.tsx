import { Check, Copy } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useCopyFeedback } from "@/hooks/use-copy-feedback";

/** SPEC §4: the full key exists on screen only here, once; afterwards the list shows it masked. */
export function CreatedApiKey({ apiKey }: { apiKey: string }) {
  const { copied, copy } = useCopyFeedback();
  // No SPEC notice for this copy; the key stays on screen to be selected by hand.
  const copyKey = () => copy(apiKey).catch((error) => console.error("Failed to copy API key", error));

  return (
    <div className="grid gap-3">
      <code
        data-testid="created-api-key"
        className="block break-all rounded-md border bg-muted px-3 py-2 font-mono text-sm"
      >
        {apiKey}
      </code>
      <Button type="button" variant="outline" className="w-fit" onClick={copyKey}>
        {copied ? <Check /> : <Copy />}
        {copied ? "Copied!" : "Copy API Key"}
      </Button>
    </div>
  );
}
