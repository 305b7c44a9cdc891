import type { WebhookDeliveryStatus } from "@shared/webhooks";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";

const COLOURS: Record<WebhookDeliveryStatus, string> = {
  succeeded:
    "border-transparent bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100",
  failed: "border-transparent bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-100",
  pending: "border-transparent bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100",
};

export function DeliveryStatusBadge({ status }: { status: WebhookDeliveryStatus }) {
  return (
    <Badge data-testid="delivery-status" variant="outline" className={cn(COLOURS[status])}>
      {status}
    </Badge>
  );
}
