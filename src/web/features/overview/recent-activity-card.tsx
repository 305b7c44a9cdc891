import type { Activity } from "@shared/tracking";
import {
  ArrowDownLeft,
  ArrowUpRight,
  BadgeDollarSign,
  Handshake,
  Inbox,
  type LucideIcon,
  Send,
  Undo2,
} from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useActivity } from "@/features/overview/api";
import {
  type ActivityItem,
  describeActivity,
  formatAbsoluteTime,
  formatRelativeTime,
} from "@/features/overview/describe-activity";
import { LoadError } from "@/features/overview/load-error";

/** SPEC §2's text for an empty list. */
export const NO_ACTIVITY_TEXT = "No recent activity to show.";
/** No SPEC §8 text for this load; worded like the others. */
export const ACTIVITY_LOAD_ERROR = "Failed to fetch recent activity";

/** The same icons as the stat cards, so a line reads as the number it adds to; money has its own. */
const KIND_ICONS: Record<ActivityItem["kind"], LucideIcon> = {
  click_sent: ArrowUpRight,
  click_received: ArrowDownLeft,
  lead_sent: Send,
  lead_received: Inbox,
  sale_sent: BadgeDollarSign,
  sale_received: BadgeDollarSign,
  refund_sent: Undo2,
  refund_received: Undo2,
  new_buddy: Handshake,
};

function ActivityList({ items }: { items: Activity }) {
  const now = Date.now();
  return (
    <ol className="grid gap-3">
      {items.map((item, index) => {
        const Icon = KIND_ICONS[item.kind];
        return (
          <li
            // Events carry no id and two can share kind, time and partner; the list is only replaced, never reordered.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above.
            key={index}
            data-testid="activity-item"
            data-kind={item.kind}
            className="flex items-center gap-3"
          >
            <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-accent text-accent-foreground">
              <Icon aria-hidden="true" className="size-4" />
            </span>
            <span className="min-w-0 flex-1 text-sm">{describeActivity(item)}</span>
            <time
              dateTime={item.at}
              title={formatAbsoluteTime(item.at)}
              className="shrink-0 text-muted-foreground text-xs"
            >
              {formatRelativeTime(item.at, now)}
            </time>
          </li>
        );
      })}
    </ol>
  );
}

function ActivitySkeleton() {
  return (
    <div role="status" aria-label="Loading" className="grid gap-3">
      {[0, 1, 2].map((row) => (
        <div key={row} className="flex items-center gap-3">
          <Skeleton className="size-8 rounded-full" />
          <Skeleton className="h-3 flex-1" />
          <Skeleton className="h-3 w-12" />
        </div>
      ))}
    </div>
  );
}

/** SPEC §2 Overview: the latest clicks, leads, sales, refunds and new Buddies, newest first (as the server sends them). */
export function RecentActivityCard() {
  const activity = useActivity();

  return (
    <Card data-testid="recent-activity" className="gap-4">
      <CardHeader>
        <CardTitle>
          <h2>Recent Activity</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {activity.isPending ? (
          <ActivitySkeleton />
        ) : activity.isError ? (
          <LoadError title={ACTIVITY_LOAD_ERROR} error={activity.error} onRetry={() => activity.refetch()} />
        ) : activity.data.length === 0 ? (
          <p className="text-muted-foreground text-sm">{NO_ACTIVITY_TEXT}</p>
        ) : (
          <ActivityList items={activity.data} />
        )}
      </CardContent>
    </Card>
  );
}
