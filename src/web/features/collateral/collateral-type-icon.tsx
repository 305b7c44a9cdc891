import type { CollateralType } from "@shared/collateral";
import { FileText, type LucideIcon, Mail, MessageSquare } from "lucide-react";
import { cn } from "@/lib/utils";

const TYPE_ICONS: Record<CollateralType, { icon: LucideIcon; label: string }> = {
  email_cta: { icon: Mail, label: "Email call to action" },
  in_app_message: { icon: MessageSquare, label: "In-app message" },
  other: { icon: FileText, label: "Other collateral" },
};

/** SPEC §2: each card shows an icon for its type. */
export function CollateralTypeIcon({ type, className }: { type: CollateralType; className?: string }) {
  const { icon: Icon, label } = TYPE_ICONS[type] ?? TYPE_ICONS.other;
  return (
    <span
      data-testid="collateral-type"
      data-type={type}
      title={label}
      className={cn(
        "flex size-9 shrink-0 items-center justify-center rounded-md bg-accent text-accent-foreground",
        className,
      )}
    >
      <Icon className="size-4" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
