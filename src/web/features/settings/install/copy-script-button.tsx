import { Check, Copy } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useCopyFeedback } from "@/hooks/use-copy-feedback";

/**
 * SPEC §2 Install: 'Copy Script', then 'Copied' for 2 seconds (SPEC §9); the Stripe card's webhook
 * URL uses it with the label 'Copy'.
 */
export function CopyScriptButton({ script, label = "Copy Script" }: { script: string; label?: string }) {
  const { copied, copy } = useCopyFeedback();
  // No SPEC notice for this copy; the script stays on screen to be selected by hand.
  const copyScript = () => copy(script).catch((error) => console.error("Failed to copy script", error));

  return (
    <Button type="button" variant="outline" size="sm" className="w-fit" onClick={copyScript}>
      {copied ? <Check /> : <Copy />}
      {copied ? "Copied" : label}
    </Button>
  );
}
