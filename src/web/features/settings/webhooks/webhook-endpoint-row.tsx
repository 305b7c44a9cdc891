import type { WebhookEndpoint } from "@shared/webhooks";
import { Send, TriangleAlert } from "lucide-react";
import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import {
  type SentMessage,
  useSendWebhookTest,
  useUpdateWebhookEndpoint,
} from "@/features/settings/webhooks/api";
import { DeleteWebhookButton } from "@/features/settings/webhooks/delete-webhook-button";
import { formatWebhookTime } from "@/features/settings/webhooks/format-webhook-time";
import { MessageOutcomeNote } from "@/features/settings/webhooks/message-outcome-note";
import { RotateWebhookSecretButton } from "@/features/settings/webhooks/rotate-webhook-secret-button";
import { WebhookDeliveriesSheet } from "@/features/settings/webhooks/webhook-deliveries-sheet";

/**
 * Enabled and healthy (green); enabled but failing since its first failed attempt, while Buddy
 * retries (amber, with the time in the viewer's zone); or disabled (red when Buddy disabled it).
 */
function StatusBadge({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.enabled && endpoint.failingSince) {
    return (
      <Badge
        data-testid="webhook-status"
        data-state="failing"
        variant="outline"
        className="whitespace-normal border-transparent bg-amber-100 text-left text-amber-900 dark:bg-amber-900/40 dark:text-amber-100"
      >
        <TriangleAlert aria-hidden="true" />
        <span>
          Failing since{" "}
          <time data-testid="webhook-failing-since" dateTime={endpoint.failingSince}>
            {formatWebhookTime(endpoint.failingSince)}
          </time>
        </span>
      </Badge>
    );
  }
  if (endpoint.enabled) {
    return (
      <Badge
        data-testid="webhook-status"
        variant="outline"
        className="border-transparent bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100"
      >
        Enabled
      </Badge>
    );
  }
  return (
    <Badge data-testid="webhook-status" variant={endpoint.disabledReason ? "destructive" : "secondary"}>
      Disabled
    </Badge>
  );
}

/** The switch says what the endpoint is; a change is sent at once and the list reloads. */
function EnabledSwitch({ endpoint }: { endpoint: WebhookEndpoint }) {
  const id = useId();
  const update = useUpdateWebhookEndpoint();
  const checked = update.isPending ? (update.variables.enabled ?? endpoint.enabled) : endpoint.enabled;
  return (
    <div className="flex items-center gap-2">
      <Switch
        id={id}
        checked={checked}
        disabled={update.isPending}
        onCheckedChange={(enabled) => update.mutate({ id: endpoint.id, enabled })}
      />
      <Label htmlFor={id}>Enabled</Label>
    </div>
  );
}

function SendTestButton({
  endpoint,
  onSent,
}: {
  endpoint: WebhookEndpoint;
  onSent(sent: SentMessage): void;
}) {
  const send = useSendWebhookTest();
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={send.isPending}
      aria-busy={send.isPending}
      onClick={() =>
        send.mutate(endpoint.id, { onSuccess: (queued) => onSent({ ...queued, sentAt: Date.now() }) })
      }
    >
      {send.isPending ? <Spinner /> : <Send />}
      Send test event
    </Button>
  );
}

/**
 * One endpoint: where it points, what it wants, whether Buddy sends to it and whether that works,
 * what to do with it, and the last test event's outcome once it is known.
 */
export function WebhookEndpointRow({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [test, setTest] = useState<SentMessage | null>(null);
  return (
    <li data-testid="webhook-endpoint" className="grid gap-3 p-4">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <p data-testid="webhook-url" className="min-w-0 break-all font-medium font-mono text-sm">
          {endpoint.url}
        </p>
        <StatusBadge endpoint={endpoint} />
      </div>
      {endpoint.disabledReason ? (
        <p className="flex items-start gap-2 text-destructive text-sm">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>{endpoint.disabledReason}. Fix the endpoint, then enable it again.</span>
        </p>
      ) : endpoint.enabled && endpoint.failingSince ? (
        <p data-testid="webhook-failing-note" className="text-amber-900 text-sm dark:text-amber-100">
          Its last attempt failed, and Buddy retries its messages. After 5 days of failures it is disabled.
          Deliveries shows each response.
        </p>
      ) : null}
      <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-muted-foreground">Events</dt>
        <dd className="flex flex-wrap gap-1.5">
          {endpoint.events.map((event) => (
            <Badge key={event} variant="secondary" className="font-mono">
              {event}
            </Badge>
          ))}
        </dd>
        <dt className="text-muted-foreground">Signing secret</dt>
        <dd>
          <code data-testid="webhook-secret-masked" className="break-all font-mono text-muted-foreground">
            {endpoint.secret}
          </code>
        </dd>
      </dl>
      <div className="flex flex-wrap items-center gap-2">
        <EnabledSwitch endpoint={endpoint} />
        <span className="hidden h-5 w-px bg-border sm:block" aria-hidden="true" />
        <SendTestButton endpoint={endpoint} onSent={setTest} />
        <WebhookDeliveriesSheet endpoint={endpoint} />
        <RotateWebhookSecretButton endpoint={endpoint} />
        <DeleteWebhookButton endpoint={endpoint} />
      </div>
      <MessageOutcomeNote endpointId={endpoint.id} sent={test} label="Test event" />
    </li>
  );
}
