import { formatLastEventTime } from "@/features/settings/install/last-event-time";

/**
 * Whether Stripe's events arrive: a pasted secret alone proves nothing (issue 37), an event signed
 * with it does. Shown only while connected.
 */
export function StripeLastEvent({ lastEventAt }: { lastEventAt: string | null }) {
  if (!lastEventAt) {
    return (
      <p data-testid="stripe-last-event" className="text-muted-foreground text-sm">
        <span className="font-medium text-foreground">No event yet.</span> Stripe sends the events below as
        they happen; from the endpoint's page in Stripe you can send a test event now.
      </p>
    );
  }
  return (
    <p data-testid="stripe-last-event" className="text-sm">
      Last event received{" "}
      <time dateTime={lastEventAt} title={new Date(lastEventAt).toLocaleString()} className="font-medium">
        {formatLastEventTime(lastEventAt)}
      </time>
    </p>
  );
}
