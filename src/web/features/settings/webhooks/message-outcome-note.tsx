import { CircleCheck, CircleX, Clock } from "lucide-react";
import { Spinner } from "@/components/ui/spinner";
import { type SentMessage, useMessageOutcome } from "@/features/settings/webhooks/api";
import { describeOutcome, type OutcomeTone } from "@/features/settings/webhooks/message-outcome";
import { cn } from "@/lib/utils";

const TONES: Record<OutcomeTone, string> = {
  waiting: "text-muted-foreground",
  delivered: "text-emerald-800 dark:text-emerald-300",
  failed: "text-destructive",
};

/**
 * A test event's or a resend's outcome, once its attempt is recorded: announced politely, and
 * asked for until then (for 20 s at most, then it says where to look).
 */
export function MessageOutcomeNote({
  endpointId,
  sent,
  label,
}: {
  endpointId: string;
  sent: SentMessage | null;
  label: string;
}) {
  const result = useMessageOutcome(endpointId, sent);
  if (result === null) return null;
  const { tone, text } = describeOutcome(label, result.outcome, result.expired);
  const waiting = result.outcome.state === "waiting";
  return (
    <p
      role="status"
      data-testid="webhook-message-outcome"
      data-state={result.outcome.state}
      className={cn("flex min-w-0 items-start gap-2 break-words text-sm", TONES[tone])}
    >
      {waiting ? (
        result.expired ? (
          <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        ) : (
          <Spinner className="mt-0.5 shrink-0" />
        )
      ) : tone === "delivered" ? (
        <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      ) : (
        <CircleX aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      )}
      <span className="min-w-0">{text}</span>
    </p>
  );
}
