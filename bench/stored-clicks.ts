// Durability under load: every redirect the short-link loads were answered with is a stored click,
// and every pixel answered 200 a stored lead (each pixel named a new click id).
import { count } from "drizzle-orm";
import type { Db } from "../src/server/db/client";
import { clickEvents, conversions } from "../src/server/db/schema";
import { record } from "./harness";

/** Read after a graceful stop, so clicks and leads still queued at the end of the load are written too. */
export async function checkStoredClicks(
  database: string,
  db: Db,
  answered: { redirects: number; pixels: number },
) {
  const checks = [
    {
      name: "click events stored = 3xx answers",
      table: clickEvents,
      answered: answered.redirects,
      as: "3xx",
    },
    { name: "leads stored = pixel 200 answers", table: conversions, answered: answered.pixels, as: "200" },
  ];
  for (const check of checks) {
    const [row] = await db.select({ stored: count() }).from(check.table);
    const stored = row?.stored ?? 0;
    record({
      database,
      name: check.name,
      ratio: `${stored} stored, ${check.answered} answered ${check.as}`,
      target: "equal",
      ok: stored === check.answered,
    });
  }
}
