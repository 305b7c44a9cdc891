import type { CSSProperties } from "react";
import { Toaster as Sonner, type ToasterProps } from "sonner";
import { TOAST_MOBILE_OFFSET_PX, TOAST_OFFSET_PX } from "@/components/ui/toast-clearance";

export { toast } from "sonner";

/** SPEC §9: notices sit bottom-right and go after 3 s; variants default, success and error. */
const TOAST_DURATION_MS = 3000;

/** shadcn's sonner wrapper without next-themes: the app has one (light) theme. */
export function Toaster(props: ToasterProps) {
  return (
    <Sonner
      theme="light"
      position="bottom-right"
      // Said here, not left to sonner's defaults: controls keep clear of notices by these numbers.
      offset={TOAST_OFFSET_PX}
      mobileOffset={TOAST_MOBILE_OFFSET_PX}
      duration={TOAST_DURATION_MS}
      richColors
      closeButton
      className="toaster group"
      style={
        {
          "--normal-bg": "var(--popover)",
          "--normal-text": "var(--popover-foreground)",
          "--normal-border": "var(--border)",
        } as CSSProperties
      }
      {...props}
    />
  );
}
