import { ShieldCheck } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { QueryError } from "@/components/query-error";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useSecurityLog } from "@/features/settings/security-log/api";
import { SecurityLogEntryRow } from "@/features/settings/security-log/security-log-entry";
import { useCurrentUser } from "@/lib/session";

/**
 * Settings → Security log (CONTRACT §3), a tab only admins see: who did what to the organization's
 * accounts and settings, when and from where, newest first, kept 180 days.
 */
export function SecurityLogPanel() {
  const { user } = useCurrentUser();
  const log = useSecurityLog({ enabled: user?.role === "admin" });
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <Card>
      <CardHeader>
        <CardTitle>Security log</CardTitle>
        <CardDescription>
          Sign-ins, password resets and changes to keys, webhooks, the team, Stripe and your domain, with who
          made them and from which address. Kept for 180 days.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {log.isPending ? (
          <div role="status" aria-label="Loading" className="grid gap-2">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : log.isError && entries.length === 0 ? (
          <QueryError
            title="Failed to fetch the security log"
            error={log.error}
            onRetry={() => log.refetch()}
          />
        ) : entries.length === 0 ? (
          <EmptyState icon={ShieldCheck} description="No security events yet." />
        ) : (
          <>
            <ul aria-label="Security log" className="divide-y rounded-lg border">
              {entries.map((entry) => (
                <SecurityLogEntryRow key={entry.id} entry={entry} />
              ))}
            </ul>
            {log.isFetchNextPageError ? (
              <p role="alert" className="text-destructive text-sm">
                Failed to load more entries. {log.error?.message}
              </p>
            ) : null}
            {log.hasNextPage ? (
              <Button
                variant="outline"
                className="w-full sm:w-fit"
                disabled={log.isFetchingNextPage}
                onClick={() => log.fetchNextPage()}
              >
                {log.isFetchingNextPage ? <Spinner /> : null}
                Load more
              </Button>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
