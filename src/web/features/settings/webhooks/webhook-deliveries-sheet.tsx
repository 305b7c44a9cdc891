import type { WebhookDelivery, WebhookEndpoint } from "@shared/webhooks";
import { History, Inbox, RefreshCw } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { QueryError } from "@/components/query-error";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import { Skeleton } from "@/components/ui/skeleton";
import { useWebhookDeliveries } from "@/features/settings/webhooks/api";
import { DeliveryStatusBadge } from "@/features/settings/webhooks/delivery-status-badge";
import { formatWebhookTime } from "@/features/settings/webhooks/format-webhook-time";
import { cn } from "@/lib/utils";

function DeliveryItem({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <li data-testid="webhook-delivery" className="grid gap-1.5 px-4 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <DeliveryStatusBadge status={delivery.status} />
        <code className="font-mono text-sm">{delivery.eventType}</code>
        <span className="text-muted-foreground text-xs">Attempt {delivery.attempt}</span>
      </div>
      <p className="flex flex-wrap gap-x-3 gap-y-1 text-muted-foreground text-xs">
        <span data-testid="delivery-response-status">
          {delivery.responseStatus === null
            ? delivery.status === "pending"
              ? "Not sent yet"
              : "No response"
            : `HTTP ${delivery.responseStatus}`}
        </span>
        {delivery.durationMs === null ? null : <span>{delivery.durationMs} ms</span>}
        <time dateTime={delivery.createdAt}>
          {delivery.status === "pending" ? "Due " : ""}
          {formatWebhookTime(delivery.createdAt)}
        </time>
      </p>
      {delivery.response ? (
        <p
          data-testid="delivery-response"
          title={delivery.response}
          className="line-clamp-2 break-all rounded bg-muted px-2 py-1 font-mono text-xs"
        >
          {delivery.response}
        </p>
      ) : null}
    </li>
  );
}

type DeliveriesQuery = ReturnType<typeof useWebhookDeliveries>;

function DeliveriesList({ deliveries }: { deliveries: DeliveriesQuery }) {
  if (deliveries.isPending) {
    return (
      <div role="status" aria-label="Loading" className="grid gap-2 px-4">
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  }
  if (deliveries.isError) {
    return (
      <div className="px-4">
        <QueryError
          title="Failed to fetch deliveries"
          error={deliveries.error}
          onRetry={() => deliveries.refetch()}
        />
      </div>
    );
  }
  if (deliveries.data.length === 0) {
    return (
      <div className="px-4">
        <EmptyState icon={Inbox} description="No deliveries yet. Send a test event to see one here." />
      </div>
    );
  }
  return (
    <ul aria-label="Deliveries" className="divide-y border-y">
      {deliveries.data.map((delivery) => (
        <DeliveryItem key={delivery.id} delivery={delivery} />
      ))}
    </ul>
  );
}

/** The drawer's content, mounted only while it is open: that is when the list is asked for. */
function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const deliveries = useWebhookDeliveries(endpoint.id);
  return (
    <>
      <div className="grid gap-3 border-b p-4 pr-12">
        <SheetTitle>Deliveries</SheetTitle>
        <SheetDescription className="break-all font-mono text-xs">{endpoint.url}</SheetDescription>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-muted-foreground text-xs">The last 100 attempts, newest first.</p>
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={deliveries.isFetching}
            onClick={() => deliveries.refetch()}
          >
            <RefreshCw className={cn(deliveries.isFetching && "animate-spin")} />
            Refresh
          </Button>
        </div>
      </div>
      <div className="py-4">
        <DeliveriesList deliveries={deliveries} />
      </div>
    </>
  );
}

/**
 * CONTRACT §9 deliveries: the endpoint's last 100 attempts, newest first, with the messages waiting
 * for their next attempt on top.
 */
export function WebhookDeliveriesSheet({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <Sheet>
      <SheetTrigger asChild>
        <Button variant="outline" size="sm">
          <History />
          Deliveries
        </Button>
      </SheetTrigger>
      <SheetContent
        side="right"
        closeLabel="Close deliveries"
        className="w-full gap-0 overflow-y-auto sm:max-w-lg"
      >
        <Deliveries endpoint={endpoint} />
      </SheetContent>
    </Sheet>
  );
}
