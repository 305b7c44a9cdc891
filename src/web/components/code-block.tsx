import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/** A snippet to read and select: monospace, wrapped, never cut. */
export function CodeBlock({ className, children, ...props }: ComponentProps<"pre">) {
  return (
    <pre
      className={cn(
        "overflow-x-auto whitespace-pre-wrap break-words rounded-md border bg-muted px-3 py-2 font-mono text-xs leading-relaxed",
        className,
      )}
      {...props}
    >
      <code>{children}</code>
    </pre>
  );
}
