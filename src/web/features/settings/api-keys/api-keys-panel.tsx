import { KeyRound } from "lucide-react";
import { Link } from "react-router";
import { EmptyState } from "@/components/empty-state";
import { QueryError } from "@/components/query-error";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useApiKeys } from "@/features/settings/api-keys/api";
import { ApiKeyList } from "@/features/settings/api-keys/api-key-list";
import { CreateApiKeyDialog } from "@/features/settings/api-keys/create-api-key-dialog";
import { errorMessage } from "@/lib/api-client";
import { paths } from "@/lib/paths";
import { useCurrentUser } from "@/lib/session";

/** Settings → API Keys tab (SPEC §2). Keys are an admin matter on the server (CONTRACT §7). */
export function ApiKeysPanel() {
  const { user } = useCurrentUser();
  const isAdmin = user?.role === "admin";
  const apiKeys = useApiKeys({ enabled: isAdmin });

  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle>API Keys</CardTitle>
          <CardDescription>
            Use API keys to fetch ads and record conversions from your own systems.{" "}
            <Link to={paths.apiDocs} className="text-primary underline-offset-4 hover:underline">
              View API documentation
            </Link>
          </CardDescription>
        </div>
        {isAdmin ? <CreateApiKeyDialog /> : null}
      </CardHeader>
      <CardContent>
        {!isAdmin ? (
          <p className="rounded-md bg-muted px-3 py-2 text-muted-foreground text-sm">
            Only admins can manage API keys.
          </p>
        ) : apiKeys.isPending ? (
          <div role="status" aria-label="Loading" className="grid gap-2">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : apiKeys.isError ? (
          // SPEC §8: the server's message replaces 'Failed to fetch API keys' when it sent one.
          <QueryError
            title={errorMessage(apiKeys.error, "Failed to fetch API keys")}
            error={null}
            onRetry={() => apiKeys.refetch()}
          />
        ) : apiKeys.data.length === 0 ? (
          <EmptyState icon={KeyRound} description="No API keys yet. Create one to get started." />
        ) : (
          <ApiKeyList apiKeys={apiKeys.data} />
        )}
      </CardContent>
    </Card>
  );
}
