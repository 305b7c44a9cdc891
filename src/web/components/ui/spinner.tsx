import { LoaderCircle } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/** Decorative by default so a busy button keeps its name; wrap it in role="status" to announce. */
function Spinner({ className, ...props }: ComponentProps<"svg">) {
  return <LoaderCircle aria-hidden="true" className={cn("size-4 animate-spin", className)} {...props} />;
}

export { Spinner };
