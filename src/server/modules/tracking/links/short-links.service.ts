import { createHash } from "node:crypto";
import { isShortCode, SHORT_CODE_BYTES } from "@shared/tracking";
import { eq } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { DbOrTx } from "../../../db/client";
import { shortLinks } from "../../../db/schema";
import { badRequest } from "../../../errors";
import { generateToken } from "../../../lib/tokens";
import { REDIRECT_PATH, type TrackedLink, verifyTrackedLink } from "./link-signature";
import { assertShareable } from "./live-ads";

/**
 * CONTRACT §5: only this platform's own signed tracked links are shortened. The same link gets
 * the same code again, so copying a snippet twice does not grow the table.
 */
export async function shortenTrackedLink(
  db: DbOrTx,
  options: {
    publicUrl: string;
    secret: string;
    longUrl: string;
    /**
     * For a link a member brings: its ad must be live now. The Ads API's own links are of ads it
     * has just judged live, and its answer must not turn into a 400 while its cache catches up.
     */
    onlyLive?: boolean;
  },
): Promise<string> {
  let url: URL;
  try {
    url = new URL(options.longUrl);
  } catch {
    throw badRequest("longUrl must be a tracked link of this platform");
  }
  const base = new URL(options.publicUrl);
  if (url.origin !== base.origin || url.pathname !== REDIRECT_PATH) {
    throw badRequest("Only this platform's tracked links can be shortened");
  }
  const link = verifyTrackedLink(options.secret, Object.fromEntries(url.searchParams));
  if (!link) throw badRequest("The tracked link's signature is not valid");
  if (options.onlyLive) await assertShareable(db, link.collateralId);

  const linkHash = createHash("sha256").update(url.search).digest("hex");
  const [existing] = await db
    .select({ code: shortLinks.code })
    .from(shortLinks)
    .where(eq(shortLinks.linkHash, linkHash));
  if (existing) return existing.code;
  const [created] = await db
    .insert(shortLinks)
    .values({ code: generateToken(SHORT_CODE_BYTES), linkHash, ...link })
    .onConflictDoNothing({ target: shortLinks.linkHash })
    .returning({ code: shortLinks.code });
  if (created) return created.code;
  const [raced] = await db
    .select({ code: shortLinks.code })
    .from(shortLinks)
    .where(eq(shortLinks.linkHash, linkHash));
  if (!raced) throw new Error("short link vanished");
  return raced.code;
}

/** Short codes never change once made: they are looked up in memory after the first time. */
export function createShortLinkResolver(db: DbOrTx, max = 50_000) {
  const cache = new LRUCache<string, TrackedLink & { code: string }>({ max });
  const resolve = async (code: string) => {
    if (!isShortCode(code)) return null;
    const hit = cache.get(code);
    if (hit) return hit;
    const [row] = await db.select().from(shortLinks).where(eq(shortLinks.code, code)).limit(1);
    if (!row) return null;
    const link = {
      code: row.code,
      relationshipId: row.relationshipId,
      collateralId: row.collateralId,
      sourceOrgId: row.sourceOrgId,
      targetOrgId: row.targetOrgId,
      url: row.url,
    };
    cache.set(code, link);
    return link;
  };
  return { resolve };
}
