// Durability under load: every redirect the short-link loads were answered with is a stored click.
import { count } from "drizzle-orm";
import type { Db } from "../src/server/db/client";
import { clickEvents } from "../src/server/db/schema";
import { rows } from "./harness";

/** Read after a graceful stop, so clicks still queued at the end of the load are written too. */
export async function checkStoredClicks(database: string, db: Db, redirects: number) {
  const [row] = await db.select({ stored: count() }).from(clickEvents);
  const stored = row?.stored ?? 0;
  rows.push({
    database,
    name: "click events stored = 3xx answers",
    ratio: `${stored} stored, ${redirects} answered 3xx`,
    target: "equal",
    ok: stored === redirects,
  });
}
