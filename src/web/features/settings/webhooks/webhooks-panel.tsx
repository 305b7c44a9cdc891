import { Webhook } from "lucide-react";
import { Link } from "react-router";
import { EmptyState } from "@/components/empty-state";
import { QueryError } from "@/components/query-error";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { AddWebhookDialog } from "@/features/settings/webhooks/add-webhook-dialog";
import { useWebhookEndpoints } from "@/features/settings/webhooks/api";
import { WebhookEndpointRow } from "@/features/settings/webhooks/webhook-endpoint-row";
import { errorMessage } from "@/lib/api-client";
import { paths } from "@/lib/paths";
import { useCurrentUser } from "@/lib/session";

export const WEBHOOK_DOCS_HREF = `${paths.apiDocs}?tab=webhooks`;

/**
 * Settings → API Keys & Webhooks, below the keys (CONTRACT §9). Endpoints are an admin matter on
 * the server, as keys are: members are told so and the list is not asked for.
 */
export function WebhooksPanel() {
  const { user } = useCurrentUser();
  const isAdmin = user?.role === "admin";
  const endpoints = useWebhookEndpoints({ enabled: isAdmin });

  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle>Webhooks</CardTitle>
          <CardDescription>
            Buddy tells your own tools when a conversion is recorded or another company adds you as a Buddy: a
            signed POST to each endpoint.{" "}
            <Link to={WEBHOOK_DOCS_HREF} className="text-primary underline-offset-4 hover:underline">
              Events and signatures
            </Link>
          </CardDescription>
        </div>
        {isAdmin ? <AddWebhookDialog /> : null}
      </CardHeader>
      <CardContent>
        {!isAdmin ? (
          <p className="rounded-md bg-muted px-3 py-2 text-muted-foreground text-sm">
            Only admins can manage webhooks.
          </p>
        ) : endpoints.isPending ? (
          <div role="status" aria-label="Loading" className="grid gap-2">
            <Skeleton className="h-24 w-full" />
          </div>
        ) : endpoints.isError ? (
          <QueryError
            title={errorMessage(endpoints.error, "Failed to fetch webhook endpoints")}
            error={null}
            onRetry={() => endpoints.refetch()}
          />
        ) : endpoints.data.length === 0 ? (
          <EmptyState
            icon={Webhook}
            description="No webhook endpoints yet. Add one to send events to your own tools."
          />
        ) : (
          <ul aria-label="Webhook endpoints" className="divide-y rounded-lg border">
            {endpoints.data.map((endpoint) => (
              <WebhookEndpointRow key={endpoint.id} endpoint={endpoint} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
