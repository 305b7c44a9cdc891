// Durability under load: every redirect the short-link loads were answered with is a stored click,
// and every pixel answered 200 a stored lead.
import { count } from "drizzle-orm";
import type { Db } from "../src/server/db/client";
import { clickEvents, conversions } from "../src/server/db/schema";
import { rows } from "./harness";

/** Read after a graceful stop, so clicks and leads still queued at the end of the load are written too. */
export async function checkStoredClicks(
  database: string,
  db: Db,
  answered: { redirects: number; pixels: number },
) {
  const [clicks] = await db.select({ stored: count() }).from(clickEvents);
  const storedClicks = clicks?.stored ?? 0;
  rows.push({
    database,
    name: "click events stored = 3xx answers",
    ratio: `${storedClicks} stored, ${answered.redirects} answered 3xx`,
    target: "equal",
    ok: storedClicks === answered.redirects,
  });
  // Each pixel named a new click id: a new lead each.
  const [leads] = await db.select({ stored: count() }).from(conversions);
  const storedLeads = leads?.stored ?? 0;
  rows.push({
    database,
    name: "leads stored = pixel 200 answers",
    ratio: `${storedLeads} stored, ${answered.pixels} answered 200`,
    target: "equal",
    ok: storedLeads === answered.pixels,
  });
}
