import { zodResolver } from "@hookform/resolvers/zod";
import { connectStripeSchema, STRIPE_REVENUE_EVENTS } from "@shared/integrations";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { CodeBlock } from "@/components/code-block";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { QueryError } from "@/components/query-error";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { FormMessage } from "@/components/ui/form-message";
import { Skeleton } from "@/components/ui/skeleton";
import { useConnectStripe, useDisconnectStripe, useStripeConnection } from "@/features/settings/install/api";
import { CopyScriptButton } from "@/features/settings/install/copy-script-button";
import { StripeLastEvent } from "@/features/settings/install/stripe-last-event";
import { STRIPE_CHECKOUT_EXAMPLE } from "@/features/settings/install/stripe-snippets";
import { errorMessage } from "@/lib/api-client";

/** The signing secret, pasted by an admin: kept sealed on the server and never shown again. */
function SecretForm({ connected }: { connected: boolean }) {
  const connect = useConnectStripe();
  const form = useForm({ resolver: zodResolver(connectStripeSchema), defaultValues: { webhookSecret: "" } });
  const onSubmit = form.handleSubmit((values) => connect.mutate(values, { onSuccess: () => form.reset() }));
  return (
    <form aria-label="Connect Stripe" noValidate className="grid gap-3" onSubmit={onSubmit}>
      <FormField
        control={form.control}
        name="webhookSecret"
        label="Signing secret"
        type="password"
        autoComplete="off"
        spellCheck={false}
        placeholder={connected ? "Paste a new secret to replace the saved one" : "whsec_…"}
      />
      {connect.isError ? (
        <FormMessage>{errorMessage(connect.error, "Failed to connect Stripe")}</FormMessage>
      ) : null}
      <Button type="submit" className="w-fit" disabled={connect.isPending}>
        {connected ? "Replace secret" : "Connect Stripe"}
      </Button>
    </form>
  );
}

/**
 * Settings → Install, "Connect Stripe" (CONTRACT §8): the webhook URL to paste into the
 * organization's own Stripe account, and the signing secret Stripe shows for it. Admins connect,
 * replace and disconnect; members see the same card read-only.
 */
export function ConnectStripeCard({ canEdit }: { canEdit: boolean }) {
  const connection = useStripeConnection();
  const disconnect = useDisconnectStripe();
  const [confirming, setConfirming] = useState(false);

  return (
    <Card data-testid="connect-stripe">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          Connect Stripe
          {connection.data ? (
            <Badge variant={connection.data.connected ? "default" : "secondary"} data-testid="stripe-status">
              {connection.data.connected ? "Connected" : "Not connected"}
            </Badge>
          ) : null}
        </CardTitle>
        <CardDescription>
          Count the revenue your Buddies bring you without writing code: Stripe tells Buddy about each paid
          Checkout and invoice, and Buddy credits it to the Buddy who sent the customer.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {connection.isPending ? (
          <Skeleton role="status" aria-label="Loading" className="h-24 w-full" />
        ) : connection.isError ? (
          <QueryError
            title="Failed to fetch the Stripe connection"
            error={connection.error}
            onRetry={() => connection.refetch()}
          />
        ) : (
          <>
            {connection.data.connected ? <StripeLastEvent lastEventAt={connection.data.lastEventAt} /> : null}
            <ol className="list-decimal space-y-1 pl-5 text-muted-foreground text-sm">
              <li>In your Stripe Dashboard, open Developers → Webhooks and add an endpoint.</li>
              <li>Paste the webhook URL below as its endpoint URL.</li>
              <li>
                Select the events Buddy needs:{" "}
                {STRIPE_REVENUE_EVENTS.map((event, index) => (
                  <span key={event}>
                    {index === 0 ? "" : index === STRIPE_REVENUE_EVENTS.length - 1 ? " and " : ", "}
                    <code className="font-mono">{event}</code>
                  </span>
                ))}
                .
              </li>
              <li>Copy the endpoint's signing secret and paste it here.</li>
            </ol>
            <div className="grid gap-2">
              <p className="font-medium text-sm">Webhook URL</p>
              <CodeBlock aria-label="Stripe webhook URL">{connection.data.webhookUrl}</CodeBlock>
              <CopyScriptButton script={connection.data.webhookUrl} label="Copy" />
            </div>
            {canEdit ? (
              <div className="grid gap-3">
                <SecretForm connected={connection.data.connected} />
                {connection.data.connected ? (
                  <>
                    <Button
                      type="button"
                      variant="outline"
                      className="w-fit"
                      onClick={() => setConfirming(true)}
                    >
                      Disconnect
                    </Button>
                    <ConfirmDialog
                      open={confirming}
                      onOpenChange={(open) => {
                        setConfirming(open);
                        if (!open) disconnect.reset();
                      }}
                      title="Disconnect Stripe?"
                      description="Buddy will refuse Stripe's events until you connect again. Revenue already recorded stays."
                      confirmLabel="Disconnect"
                      pending={disconnect.isPending}
                      error={
                        disconnect.isError
                          ? errorMessage(disconnect.error, "Failed to disconnect Stripe")
                          : null
                      }
                      onConfirm={() =>
                        disconnect.mutate(undefined, { onSuccess: () => setConfirming(false) })
                      }
                    />
                  </>
                ) : null}
              </div>
            ) : (
              <p className="text-muted-foreground text-sm">Only admins can connect or disconnect Stripe.</p>
            )}
            <div className="grid gap-2">
              <p className="font-medium text-sm">Pass the click id to Stripe Checkout</p>
              <p className="text-muted-foreground text-sm">
                Set <code className="font-mono">client_reference_id</code> to the click id the click tracking
                script kept, so the purchase is credited to the right Buddy. Its customer's later invoices
                follow for a year.
              </p>
              <CodeBlock aria-label="Stripe Checkout example">{STRIPE_CHECKOUT_EXAMPLE}</CodeBlock>
              <p className="text-muted-foreground text-sm" data-testid="stripe-no-code">
                Payment Links, pricing tables and buy buttons need no code: on a page with the click tracking
                script, each carries the click id by itself.
              </p>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
