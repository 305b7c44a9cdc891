import { Fragment } from "react";

/**
 * The server's descriptions mark names with backticks (`limit`, `bclickid`); show those as code.
 * Only that one mark is read: the text is never parsed as HTML or full Markdown.
 */
export function DocText({ text }: { text: string }) {
  const parts = text.split(/`([^`]+)`/);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the split of a fixed string never reorders.
          <code key={index} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em]">
            {part}
          </code>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the split of a fixed string never reorders.
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}
