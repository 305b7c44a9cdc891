import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/** A field's validation message; renders nothing when there is none. */
function FormMessage({ className, children, ...props }: ComponentProps<"p">) {
  if (!children) return null;
  return (
    <p data-slot="form-message" className={cn("text-destructive text-sm", className)} {...props}>
      {children}
    </p>
  );
}

export { FormMessage };
