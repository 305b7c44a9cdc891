import type { WebhookDelivery, WebhookEndpoint } from "@shared/webhooks";
import { History, Inbox, RefreshCw, RotateCcw } from "lucide-react";
import { useState } from "react";
import { CopyButton } from "@/components/copy-button";
import { EmptyState } from "@/components/empty-state";
import { QueryError } from "@/components/query-error";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import {
  type SentMessage,
  useResendWebhookMessage,
  useWebhookDeliveries,
} from "@/features/settings/webhooks/api";
import { DeliveryStatusBadge } from "@/features/settings/webhooks/delivery-status-badge";
import { formatPayload } from "@/features/settings/webhooks/format-payload";
import { formatWebhookTime } from "@/features/settings/webhooks/format-webhook-time";
import { MessageOutcomeNote } from "@/features/settings/webhooks/message-outcome-note";
import { cn } from "@/lib/utils";

/** What was sent or answered, folded away until asked for: a drawer of 100 attempts stays short. */
function Exchange({
  title,
  text,
  hint,
  testId,
  copy,
}: {
  title: string;
  text: string;
  hint: string;
  testId: string;
  copy?: string;
}) {
  return (
    <details data-testid={testId} className="rounded border text-xs">
      <summary className="cursor-pointer select-none px-2 py-1.5 font-medium hover:bg-muted/60">
        {title} <span className="font-normal text-muted-foreground">{hint}</span>
      </summary>
      <div className="grid gap-2 border-t p-2">
        <pre className="max-h-72 overflow-auto whitespace-pre-wrap break-all rounded bg-muted p-2 font-mono">
          {text}
        </pre>
        {copy === undefined ? null : (
          <CopyButton text={copy} label={`Copy ${title.toLowerCase()}`} size="sm" className="w-fit" />
        )}
      </div>
    </details>
  );
}

type Resend = { run(delivery: WebhookDelivery): void; busyId: string | null; allowed: boolean };

function DeliveryItem({ delivery, resend }: { delivery: WebhookDelivery; resend: Resend }) {
  // Only an attempt made can be made again; one from before bodies were kept cannot (409).
  const resendable = delivery.status !== "pending" && delivery.request !== null;
  const busy = resend.busyId === delivery.id;
  return (
    <li data-testid="webhook-delivery" className="grid gap-1.5 px-4 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <DeliveryStatusBadge status={delivery.status} />
        <code className="font-mono text-sm">{delivery.eventType}</code>
        <span className="text-muted-foreground text-xs">Attempt {delivery.attempt}</span>
        {resendable ? (
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="ml-auto h-7"
            disabled={!resend.allowed || resend.busyId !== null}
            aria-busy={busy}
            aria-label={`Resend ${delivery.eventType}, attempt ${delivery.attempt}`}
            onClick={() => resend.run(delivery)}
          >
            {busy ? <Spinner /> : <RotateCcw />}
            Resend
          </Button>
        ) : null}
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
      {delivery.request !== null ? (
        <Exchange
          title="Payload"
          hint="as signed, shown indented"
          text={formatPayload(delivery.request)}
          copy={delivery.request}
          testId="delivery-payload"
        />
      ) : null}
      {delivery.response ? (
        <Exchange
          title="Response"
          hint={delivery.responseStatus === null ? "why there was none" : "its first 1 KB"}
          text={delivery.response}
          testId="delivery-response-full"
        />
      ) : null}
    </li>
  );
}

type DeliveriesQuery = ReturnType<typeof useWebhookDeliveries>;

function DeliveriesList({ deliveries, resend }: { deliveries: DeliveriesQuery; resend: Resend }) {
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
        <DeliveryItem key={delivery.id} delivery={delivery} resend={resend} />
      ))}
    </ul>
  );
}

/** The drawer's content, mounted only while it is open: that is when the list is asked for. */
function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const deliveries = useWebhookDeliveries(endpoint.id);
  const resendMutation = useResendWebhookMessage(endpoint.id);
  const [resent, setResent] = useState<SentMessage | null>(null);
  const resend: Resend = {
    allowed: endpoint.enabled,
    busyId: resendMutation.isPending ? (resendMutation.variables ?? null) : null,
    run: (delivery) =>
      resendMutation.mutate(delivery.id, {
        onSuccess: (queued) => setResent({ ...queued, sentAt: Date.now() }),
      }),
  };
  return (
    <>
      <div className="grid gap-3 border-b p-4 pr-12">
        <SheetTitle>Deliveries</SheetTitle>
        <SheetDescription className="break-all font-mono text-xs">{endpoint.url}</SheetDescription>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-muted-foreground text-xs">
            The last 100 attempts, newest first. Resend sends an attempt's message again, with the same
            webhook-id.
          </p>
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
        {endpoint.enabled ? null : (
          <p data-testid="resend-disabled-note" className="text-muted-foreground text-xs">
            Enable the endpoint to resend its messages.
          </p>
        )}
        <MessageOutcomeNote endpointId={endpoint.id} sent={resent} label="Resent message" />
      </div>
      <div className="py-4">
        <DeliveriesList deliveries={deliveries} resend={resend} />
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
