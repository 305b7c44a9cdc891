import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS, type WebhookEvent } from "@shared/webhooks";
import { useId } from "react";
import { type Control, useController } from "react-hook-form";
import { Checkbox } from "@/components/ui/checkbox";
import { FormMessage } from "@/components/ui/form-message";
import { Label } from "@/components/ui/label";

type EventsForm = { url: string; events: WebhookEvent[] };

/** CONTRACT §9: a non-empty subset of the events, one checkbox each, in the contract's order. */
export function WebhookEventsField({ control }: { control: Control<EventsForm, unknown, EventsForm> }) {
  const { field, fieldState } = useController({ control, name: "events" });
  const id = useId();
  const messageId = `${id}-message`;
  const error = fieldState.error?.message;
  const selected = field.value ?? [];

  const toggle = (event: WebhookEvent, checked: boolean) =>
    field.onChange(
      WEBHOOK_EVENTS.filter((candidate) => (candidate === event ? checked : selected.includes(candidate))),
    );

  return (
    <fieldset
      className="grid gap-3"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? messageId : undefined}
    >
      <legend className="mb-2 font-medium text-sm">Events</legend>
      {WEBHOOK_EVENTS.map((event, index) => (
        <div key={event} className="flex items-start gap-3">
          <Checkbox
            id={`${id}-${event}`}
            ref={index === 0 ? field.ref : undefined}
            checked={selected.includes(event)}
            onCheckedChange={(checked) => toggle(event, checked === true)}
            onBlur={field.onBlur}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-${event}-label`}
            className="mt-0.5"
          />
          <div className="grid gap-1">
            <Label htmlFor={`${id}-${event}`} className="font-mono">
              {event}
            </Label>
            <p id={`${id}-${event}-label`} className="text-muted-foreground text-sm">
              {WEBHOOK_EVENT_LABELS[event]}
            </p>
          </div>
        </div>
      ))}
      <FormMessage id={messageId}>{error}</FormMessage>
    </fieldset>
  );
}
