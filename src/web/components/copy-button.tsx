import { Check, Copy } from "lucide-react";
import type { ComponentProps } from "react";
import { Button } from "@/components/ui/button";
import { useCopyFeedback } from "@/hooks/use-copy-feedback";

type CopyButtonProps = Omit<ComponentProps<typeof Button>, "onClick" | "children"> & {
  /** What goes to the clipboard. */
  text: string;
  label?: string;
  /** Shown for 2 seconds after a copy (SPEC §9). */
  copiedLabel?: string;
};

/**
 * Copies `text`, then says so for 2 seconds: the install scripts ('Copy Script' → 'Copied'), the
 * one-time API key ('Copy API Key' → 'Copied!') and webhook secrets ('Copy' → 'Copied!').
 */
export function CopyButton({
  text,
  label = "Copy",
  copiedLabel = "Copied!",
  variant = "outline",
  className = "w-fit",
  ...props
}: CopyButtonProps) {
  const { copied, copy } = useCopyFeedback();
  // No SPEC notice for these copies: the text stays on screen, to be selected by hand.
  const copyText = () => copy(text).catch((error) => console.error(`${label}: the clipboard refused`, error));

  return (
    <Button type="button" variant={variant} className={className} onClick={copyText} {...props}>
      {copied ? <Check /> : <Copy />}
      {copied ? copiedLabel : label}
    </Button>
  );
}
