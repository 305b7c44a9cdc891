import { type BillingInfo, isPaidSubscriptionStatus } from "@shared/billing";
import { QueryError } from "@/components/query-error";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useBilling, useChangeCancellation, useOpenBillingPortal } from "@/features/settings/billing/api";
import { ProPlanCard } from "@/features/settings/billing/pro-plan-card";
import { useCurrentUser } from "@/lib/session";

const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });

/** Settings → Billing tab (SPEC §2): the current plan, and the Pro plan while on Free. */
export function BillingPanel() {
  const { user } = useCurrentUser();
  const isAdmin = user?.role === "admin";
  const billing = useBilling({ enabled: isAdmin });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Billing</CardTitle>
        <CardDescription>Your plan and subscription.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {!isAdmin ? (
          <p className="rounded-md bg-muted px-3 py-2 text-muted-foreground text-sm">
            Only admins can manage billing.
          </p>
        ) : billing.isPending ? (
          <div role="status" aria-label="Loading" className="grid gap-2">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-48 w-full" />
          </div>
        ) : billing.isError ? (
          <QueryError
            title="Failed to fetch billing data"
            error={billing.error}
            onRetry={() => billing.refetch()}
          />
        ) : (
          <BillingDetails info={billing.data} />
        )}
      </CardContent>
    </Card>
  );
}

function BillingDetails({ info }: { info: BillingInfo }) {
  const portal = useOpenBillingPortal();
  const cancellation = useChangeCancellation();
  // The server's own notion of a paid subscription: a trial or a payment being retried counts too.
  const active = info.plan !== "free" && isPaidSubscriptionStatus(info.subscriptionStatus);

  return (
    <>
      <div className="flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="grid gap-1">
          <p className="text-muted-foreground text-sm">Current plan</p>
          <p className="font-semibold text-lg" data-testid="current-plan">
            {info.plan === "free" ? "Free" : "Pro"}
          </p>
          {active && info.currentPeriodEnd ? (
            <p className="text-muted-foreground text-sm">
              {info.cancelAtPeriodEnd ? "Access ends on" : "Next billing date:"}{" "}
              {formatDate(info.currentPeriodEnd)}
            </p>
          ) : null}
        </div>
        <Button variant="outline" disabled={portal.isPending} onClick={() => portal.mutate()}>
          {portal.isPending ? <Spinner /> : null}
          Manage Subscription
        </Button>
      </div>

      {active ? (
        info.cancelAtPeriodEnd ? (
          <div
            role="status"
            className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 sm:flex-row sm:items-center sm:justify-between dark:bg-amber-950/30"
          >
            <p className="text-sm">
              Your subscription is set to cancel at the end of the current billing period.
            </p>
            <Button disabled={cancellation.isPending} onClick={() => cancellation.mutate("reactivate")}>
              Resume Subscription
            </Button>
          </div>
        ) : (
          <div>
            <Button
              variant="outline"
              className="text-destructive hover:text-destructive"
              disabled={cancellation.isPending}
              onClick={() => cancellation.mutate("cancel")}
            >
              Cancel Subscription
            </Button>
          </div>
        )
      ) : null}

      {info.plan === "free" ? <ProPlanCard /> : null}
    </>
  );
}
