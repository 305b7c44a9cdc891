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
    /** Told of every committed batch of clicks or leads (metrics). */
    onCommit?: (kind: EventKind, batch: CommittedBatch) => void;
    /** Told of every click or lead answered 503 instead of its commit (metrics). */
    onRefusal?: (kind: EventKind, refusal: Refusal) => void;
  },
) {
  const clickIds = createClickIds(secret);
  const clicks = createClickTracker({
    db,
    clickIds,
    redis: options.redis,
    notifications: options.notifications,
    visitorSalts: options.visitorSalts,
    onCommit: (batch) => options.onCommit?.("clicks", batch),
    onRefusal: (refusal) => options.onRefusal?.("clicks", refusal),
  });
  // One recorder of leads for the server call and the pixel: what one remembers, both know.
  const leads = createConversionRecorder({
    db,
    clickIds,
    limitPixel: options.limitPixel,
    onCommit: (batch) => options.onCommit?.("leads", batch),
    onRefusal: (refusal) => options.onRefusal?.("leads", refusal),
  });
  const shortCodes = createShortLinkResolver(db);
  return {
    follow: clicks.follow,
    resolveShortCode: shortCodes.resolve,
    clickIds,
    leads,
    async close() {
      await Promise.all([clicks.close(), leads.close()]);
    },
  };
}

export type Tracker = ReturnType<typeof createTracker>;
