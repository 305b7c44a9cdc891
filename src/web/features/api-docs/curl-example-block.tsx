import { Check, Copy } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useCopyFeedback } from "@/hooks/use-copy-feedback";

/**
 * A runnable curl command (or another snippet: a payload, a receiver) with a copy button; the text
 * stays selectable by hand too.
 */
export function CurlExampleBlock({
  command,
  label,
  testId = "curl-example",
}: {
  command: string;
  label: string;
  testId?: string;
}) {
  const { copied, copy } = useCopyFeedback();
  // No SPEC notice for this copy; a refused clipboard leaves the command on screen to select.
  const copyCommand = () =>
    copy(command).catch((error) => console.error("Failed to copy the example", error));

  return (
    <div className="relative">
      <pre
        data-testid={testId}
        className="overflow-x-auto rounded-md border bg-muted px-3 py-3 pr-12 font-mono text-xs leading-relaxed"
      >
        <code>{command}</code>
      </pre>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="absolute top-1.5 right-1.5 size-8"
        aria-label={copied ? "Copied!" : `Copy ${label}`}
        title={copied ? "Copied!" : `Copy ${label}`}
        onClick={copyCommand}
      >
        {copied ? <Check /> : <Copy />}
      </Button>
    </div>
  );
}
