import { AD_TEMPLATES, type AdTemplate } from "@shared/ads";
import type { Collateral } from "@shared/collateral";
import { renderAdHtml } from "@shared/snippets";
import { Braces, Check, Code, Copy } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import {
  type AdCompany,
  buildAd,
  type CopyNotifier,
  copySnippet,
  SNIPPET_FORMATS,
  type SnippetFormat,
} from "@/features/collateral/snippet-copy";
import { SnippetPreview } from "@/features/collateral/snippet-preview";
import { useCopyFeedback } from "@/hooks/use-copy-feedback";

const BUTTONS: Record<SnippetFormat, { label: string; icon: typeof Copy }> = {
  html: { label: "Copy HTML", icon: Code },
  text: { label: "Copy Text", icon: Copy },
  json: { label: "Copy JSON", icon: Braces },
};

const TEMPLATE_LABELS: Record<AdTemplate, string> = { simple: "Simple", card: "Card", banner: "Banner" };

const toastNotifier: CopyNotifier = {
  success: (message) => toast.success(message),
  warning: (message) => toast.warning(message),
  error: (message) => toast.error(message),
};

type CopySnippetButtonProps = {
  format: SnippetFormat;
  busy: boolean;
  disabled: boolean;
  onCopy: (format: SnippetFormat) => Promise<boolean>;
};

/** One copy button; its icon turns into a tick for 2 seconds after a copy (SPEC §9). */
function CopySnippetButton({ format, busy, disabled, onCopy }: CopySnippetButtonProps) {
  const { copied, markCopied } = useCopyFeedback();
  const { label, icon: Icon } = BUTTONS[format];
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      disabled={disabled}
      aria-busy={busy}
      data-copied={copied || undefined}
      onClick={async () => {
        if (await onCopy(format)) markCopied();
      }}
    >
      {busy ? <Spinner /> : copied ? <Check /> : <Icon />}
      {label}
    </Button>
  );
}

type CopySnippetButtonsProps = {
  collateral: Collateral;
  /** The Buddy the ad is for (the relationship's target organization). */
  company: AdCompany;
};

/**
 * SPEC §2 tool detail: Copy HTML, Copy Text and Copy JSON for one of a Buddy's ads, with the HTML
 * template to use and a live preview of what will paste. The preview links to the call to action
 * itself: looking at it creates no short link and records no click.
 */
export function CopySnippetButtons({ collateral, company }: CopySnippetButtonsProps) {
  const [template, setTemplate] = useState<AdTemplate>("simple");
  const [busy, setBusy] = useState<SnippetFormat | null>(null);
  const templateId = useId();
  const previewHtml = useMemo(
    () => renderAdHtml(buildAd(collateral, company, collateral.ctaUrl), template),
    [collateral, company, template],
  );

  // No await before copySnippet: it reaches the clipboard within the click (see writeClipboard).
  const copy = async (format: SnippetFormat) => {
    setBusy(format);
    try {
      return await copySnippet({ format, collateral, company, template }, toastNotifier);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div data-testid="copy-snippets" className="grid content-start gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <Label htmlFor={templateId}>HTML template</Label>
        <Select value={template} onValueChange={(value) => setTemplate(value as AdTemplate)}>
          <SelectTrigger id={templateId} className="h-8 w-32">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {AD_TEMPLATES.map((value) => (
              <SelectItem key={value} value={value}>
                {TEMPLATE_LABELS[value]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <SnippetPreview html={previewHtml} title={`HTML preview: ${collateral.name}`} />
      <div className="flex flex-wrap gap-2">
        {SNIPPET_FORMATS.map((format) => (
          <CopySnippetButton
            key={format}
            format={format}
            busy={busy === format}
            disabled={busy !== null}
            onCopy={copy}
          />
        ))}
      </div>
    </div>
  );
}
