import { AD_TEMPLATES, type AdTemplate } from "@shared/ads";
import type { Collateral } from "@shared/collateral";
import { renderAdHtml } from "@shared/snippets";
import { Braces, Check, Code, Copy, Link2 } from "lucide-react";
import { useId, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/toast";
import { KEEP_CLEAR_OF_TOASTS, keepClearOfToasts } from "@/components/ui/toast-clearance";
import {
  type AdCompany,
  buildAd,
  type CopyNotifier,
  copyLink,
  copySnippet,
  SNIPPET_FORMATS,
  type SnippetFormat,
} from "@/features/collateral/snippet-copy";
import { SnippetPreview } from "@/features/collateral/snippet-preview";
import { useShortener } from "@/features/collateral/use-short-link";
import { useCopyFeedback } from "@/hooks/use-copy-feedback";
import { cn } from "@/lib/utils";

/** What a button copies: the link alone, or one of the three snippets. */
type CopyKind = "link" | SnippetFormat;

const BUTTONS: Record<CopyKind, { label: string; icon: typeof Copy }> = {
  link: { label: "Copy link", icon: Link2 },
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

type CopyButtonProps = {
  kind: CopyKind;
  busy: boolean;
  disabled: boolean;
  onCopy: (kind: CopyKind) => Promise<boolean>;
};

/** One copy button; its icon turns into a tick for 2 seconds after a copy (SPEC §9). */
function CopyButton({ kind, busy, disabled, onCopy }: CopyButtonProps) {
  const { copied, markCopied } = useCopyFeedback();
  const { label, icon: Icon } = BUTTONS[kind];
  return (
    <Button
      type="button"
      // Copy link is the one-click share: the first and the one that stands out.
      variant={kind === "link" ? "default" : "outline"}
      size="sm"
      disabled={disabled}
      aria-busy={busy}
      data-copied={copied || undefined}
      onClick={async () => {
        if (await onCopy(kind)) markCopied();
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
  /**
   * The link that will be shared: the short tracked link once known, the full tracked link if it
   * cannot be made (what Copy HTML then falls back to), null while it is being asked for.
   */
  sharedUrl: string | null;
};

/**
 * SPEC §2 tool detail: Copy link (the short tracked link alone), Copy HTML, Copy Text and Copy
 * JSON for one of a Buddy's ads, with the HTML template to use and a live preview of what will
 * paste, linking where the copy will: the short tracked link. The preview's frame navigates
 * nowhere, so looking at it records no click.
 */
export function CopySnippetButtons({ collateral, company, sharedUrl }: CopySnippetButtonsProps) {
  const [template, setTemplate] = useState<AdTemplate>("simple");
  const [busy, setBusy] = useState<CopyKind | null>(null);
  const templateId = useId();
  const buttons = useRef<HTMLDivElement>(null);
  const shorten = useShortener();
  const previewHtml = useMemo(
    () => (sharedUrl ? renderAdHtml(buildAd(collateral, company, sharedUrl), template) : null),
    [collateral, company, sharedUrl, template],
  );

  // No await before the copy: it reaches the clipboard within the click (see writeClipboard).
  const copy = async (kind: CopyKind) => {
    // The notice this makes must not cover these buttons (issue 37): they move above it if it would.
    keepClearOfToasts(buttons.current);
    setBusy(kind);
    try {
      return kind === "link"
        ? await copyLink({ trackedUrl: collateral.trackedUrl, shorten }, toastNotifier)
        : await copySnippet({ format: kind, collateral, company, template, shorten }, toastNotifier);
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
      {previewHtml === null ? (
        <Skeleton data-testid="snippet-preview-pending" className="h-[220px] w-full rounded-md" />
      ) : (
        <SnippetPreview html={previewHtml} title={`HTML preview: ${collateral.name}`} />
      )}
      <div ref={buttons} className={cn("flex flex-wrap gap-2", KEEP_CLEAR_OF_TOASTS)}>
        {(["link", ...SNIPPET_FORMATS] as const).map((kind) => (
          <CopyButton key={kind} kind={kind} busy={busy === kind} disabled={busy !== null} onCopy={copy} />
        ))}
      </div>
    </div>
  );
}
