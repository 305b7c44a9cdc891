import type { Redis } from "ioredis";
import type { ChangeNotifications } from "../../db/change-notifications";
import type { Db } from "../../db/client";
import type { CommittedBatch, Refusal } from "../../lib/group-commit";
import type { EventKind } from "../../observability/metrics";
import { createClickIds } from "./clicks/click-id";
import { createClickTracker } from "./clicks/click-tracker";
import type { VisitorSalts } from "./clicks/visitor-hash";
import { createConversionRecorder } from "./conversions/conversions.service";
import { createShortLinkResolver } from "./links/short-links.service";

/**
 * The tracking side of one instance: links followed into clicks, and leads recorded against the
 * click ids those clicks issued. Every click and lead is committed to the shared database before
 * it is answered, so nothing waits on this instance.
 */
export function createTracker(
  db: Db,
  secret: string,
  options: {
    redis?: Redis;
    notifications?: ChangeNotifications;
    visitorSalts: VisitorSalts;
    /** The conversion pixel's allowance per client address (CONTRACT §2, 429). */
    limitPixel?: ((client: string) => Promise<void>) | null;
    /** Told of every committed batch of clicks or conversions (Prometheus metrics). */
    onCommit?: (kind: EventKind, batch: CommittedBatch) => void;
    /** Told of every click or conversion answered 503 instead of its commit (Prometheus metrics). */
    onRefusal?: (kind: EventKind, refusal: Refusal) => void;
  },
) {
  const clickIds = createClickIds(secret);
  const clicks = createClickTracker({
    db,
    clickIds,
    secret,
    redis: options.redis,
    notifications: options.notifications,
    visitorSalts: options.visitorSalts,
    onCommit: (batch) => options.onCommit?.("clicks", batch),
    onRefusal: (refusal) => options.onRefusal?.("clicks", refusal),
  });
  // One recorder of conversions for the server call, the pixel and Stripe: what one remembers, all know.
  const conversions = createConversionRecorder({
    db,
    clickIds,
    limitPixel: options.limitPixel,
    onCommit: (batch) => options.onCommit?.("conversions", batch),
    onRefusal: (refusal) => options.onRefusal?.("conversions", refusal),
  });
  const shortCodes = createShortLinkResolver(db);
  return {
    follow: clicks.follow,
    rememberSignIn: clicks.rememberSignIn,
    resolveShortCode: shortCodes.resolve,
    clickIds,
    conversions,
    async close() {
      await Promise.all([clicks.close(), conversions.close()]);
    },
  };
}

export type Tracker = ReturnType<typeof createTracker>;
