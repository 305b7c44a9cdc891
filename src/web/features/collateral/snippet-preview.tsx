import { useState } from "react";
import { previewDocument } from "@/features/collateral/snippet-copy";

const INITIAL_HEIGHT = 220;

/**
 * The HTML snippet as a mail shows it: the shared markup in its own document, so the app's styles
 * neither leak in nor out. Sandboxed without scripts, forms or pop-ups (its links go nowhere);
 * same-origin only so its height can be read once it has loaded (images included).
 */
export function SnippetPreview({ html, title }: { html: string; title: string }) {
  const [height, setHeight] = useState<number | null>(null);
  return (
    <iframe
      data-testid="snippet-preview"
      title={title}
      srcDoc={previewDocument(html)}
      sandbox="allow-same-origin"
      referrerPolicy="no-referrer"
      onLoad={(event) => {
        // offsetHeight, not scrollHeight: the latter never drops below the frame's current height.
        const root = event.currentTarget.contentDocument?.documentElement;
        if (root?.offsetHeight) setHeight(root.offsetHeight);
      }}
      style={{ height: height ?? INITIAL_HEIGHT }}
      className="w-full rounded-md border bg-white"
    />
  );
}
