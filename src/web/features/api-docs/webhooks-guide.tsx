import { WEBHOOK_MESSAGES } from "@shared/webhooks";
import { Webhook } from "lucide-react";
import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { BulletList } from "@/features/api-docs/bullet-list";
import { CurlExampleBlock } from "@/features/api-docs/curl-example-block";
import { DocSection } from "@/features/api-docs/doc-section";
import { DocText } from "@/features/api-docs/doc-text";
import { FieldsTable } from "@/features/api-docs/fields-table";
import {
  RETRY_DELAYS,
  VERIFY_EXAMPLE,
  WEBHOOK_EVENT_REFERENCE,
  WEBHOOK_HEADERS,
  type WebhookEventReference,
} from "@/features/api-docs/webhook-reference";
import { paths } from "@/lib/paths";

const VERIFY_TEXT =
  "Install `standardwebhooks` from npm and verify the raw body, as received, with " +
  "`new Webhook(secret).verify(rawBody, headers)`: it throws when the signature or the timestamp is wrong, " +
  'and returns the parsed message. With Express, read the body with `express.raw({ type: "application/json" })`.';

export const WEBHOOK_SETTINGS_HREF = `${paths.settings}?tab=api`;

function EventCard({ event }: { event: WebhookEventReference }) {
  return (
    <article data-testid="webhook-event" data-event={event.type} aria-label={event.type} className="min-w-0">
      <Card className="gap-5">
        <CardHeader className="gap-2">
          <div className="flex flex-wrap items-center gap-2">
            <span className="rounded bg-violet-100 px-1.5 py-0.5 font-mono font-semibold text-violet-900 text-xs dark:bg-violet-900/40 dark:text-violet-100">
              EVENT
            </span>
            <h3 className="font-mono font-semibold text-sm">{event.type}</h3>
          </div>
          <p className="text-sm leading-relaxed">
            <DocText text={event.when} />
          </p>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-5">
          <DocSection title="data">
            <FieldsTable heading="Field" rows={event.fields} />
          </DocSection>
          <DocSection title="Example">
            <CurlExampleBlock
              command={JSON.stringify(event.example, null, 2)}
              label={`example ${event.type} message`}
              testId="webhook-example"
            />
          </DocSection>
        </CardContent>
      </Card>
    </article>
  );
}

/**
 * CONTRACT §9 for the people who build a receiver: what Buddy sends, how to check it came from
 * Buddy, and what happens when their endpoint does not answer.
 */
export function WebhooksGuide() {
  return (
    <>
      <Card data-testid="webhooks-guide">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Webhook aria-hidden="true" className="size-5" />
            Webhooks
          </CardTitle>
          <CardDescription>
            Buddy POSTs a JSON message to your endpoints when something happens to your company: your own
            tools (a CRM, a data warehouse, Slack) learn of it without asking.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-5">
          <DocSection title="Endpoints">
            <BulletList
              items={[
                "Admins add endpoints, choose their events, send a test event and see each endpoint's deliveries in Settings.",
                "An endpoint's URL is http or https on the standard port (443 or 80), at a public address: private and loopback addresses are refused.",
                "Each endpoint has its own signing secret (`whsec_…`), shown in full once, when the endpoint is added or its secret rotated.",
                'Every message is `{"type", "timestamp", "data"}`: the event, when the message was made (ISO 8601) and the event\'s fields below.',
              ]}
            />
            <p className="text-sm">
              Manage them in{" "}
              <Link
                to={WEBHOOK_SETTINGS_HREF}
                className="font-medium text-primary underline-offset-4 hover:underline"
              >
                Settings → API Keys &amp; Webhooks
              </Link>
              .
            </p>
          </DocSection>
        </CardContent>
      </Card>

      {WEBHOOK_EVENT_REFERENCE.map((event) => (
        <EventCard key={event.type} event={event} />
      ))}

      <Card data-testid="webhook-signatures">
        <CardHeader>
          <CardTitle>Signatures</CardTitle>
          <CardDescription>
            Messages are signed the Standard Webhooks way. Check every one before you trust it: anyone can
            POST to your URL.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-5">
          <DocSection title="Headers">
            <FieldsTable heading="Header" rows={WEBHOOK_HEADERS} testId="webhook-headers" />
          </DocSection>
          <DocSection title="Verify in Node">
            <p className="text-sm leading-relaxed">
              <DocText text={VERIFY_TEXT} />
            </p>
            <CurlExampleBlock
              command={VERIFY_EXAMPLE}
              label="Node receiver"
              testId="webhook-verify-example"
            />
          </DocSection>
        </CardContent>
      </Card>

      <Card data-testid="webhook-retries">
        <CardHeader>
          <CardTitle>Deliveries and retries</CardTitle>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-5">
          <BulletList
            items={[
              "A delivery succeeds when your endpoint answers with a 2xx status within 10 seconds.",
              `Anything else (another status, a redirect, a timeout, no connection) is retried after ${RETRY_DELAYS.join(", ")}: eight attempts in all by default. Then the message is marked failed.`,
              "Every attempt of a message has the same `webhook-id`, and a message may arrive more than once: skip the ids you have already handled.",
              `An endpoint whose deliveries fail for 5 days in a row is disabled ("${WEBHOOK_MESSAGES.disabled}"), and your company's admins get an e-mail. Enable it again in Settings once it is fixed.`,
              "Deliveries are kept for 30 days; Settings shows each endpoint's last 100, with the response status, the time taken, the start of the response and the body sent (its first 16 KB).",
              'Settings marks an endpoint "Failing since …" from its first failed attempt until one succeeds, and shows a test event\'s outcome once its attempt is made.',
              "Resend (admins, in an endpoint's deliveries) sends an attempt's message again as one new attempt: the same `webhook-id` and body, signed anew, not retried if it fails. A disabled endpoint is enabled first; a message still waiting for a retry is sent at once instead.",
            ]}
          />
        </CardContent>
      </Card>
    </>
  );
}
