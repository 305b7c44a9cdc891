import { CopyButton } from "@/components/copy-button";

/**
 * SPEC §2 Install: 'Copy Script', then 'Copied' for 2 seconds (SPEC §9); the Stripe card's webhook
 * URL uses it with the label 'Copy'.
 */
export function CopyScriptButton({ script, label = "Copy Script" }: { script: string; label?: string }) {
  return <CopyButton text={script} label={label} copiedLabel="Copied" size="sm" />;
}
