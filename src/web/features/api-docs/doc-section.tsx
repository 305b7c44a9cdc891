import type { ReactNode } from "react";

/** A titled part of a card on the API docs page (an operation's Parameters, a guide's Headers). */
export function DocSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid grid-cols-1 gap-2">
      <h4 className="font-medium text-muted-foreground text-xs uppercase tracking-wide">{title}</h4>
      {children}
    </section>
  );
}
