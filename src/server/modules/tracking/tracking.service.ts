import { eq } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Db } from "../../db/client";
import { collateral } from "../../db/schema";
import { generateToken } from "../../lib/tokens";
import { createClickClassifier } from "./click-classifier";
import { createClickRecorder } from "./click-recorder";
import { landingUrl, type TrackedLink } from "./link-signature";
import { createShortLinkResolver } from "./short-links.service";
import { createVisitorHasher } from "./visitor-hash";

export type Hit = { method: string; ip: string; userAgent: string; referer: string | undefined };

/** Hosts compare without a leading www., as domains do everywhere else (CONTRACT §4). */
const bareHost = (host: string) => host.toLowerCase().replace(/^www\./, "");

/**
 * The redirect path: link lookups from memory, a verdict per hit, the click committed in a
 * batch, then the landing URL with its bclickid.
 */
export function createTracker(db: Db, secret: string) {
  const recorder = createClickRecorder(db);
  const classify = createClickClassifier();
  const hashVisitor = createVisitorHasher(secret);
  const resolveShortCode = createShortLinkResolver(db);
  // A collateral's host rarely changes; a minute of staleness only delays a new host.
  const collateralHosts = new LRUCache<string, { host: string; organizationId: string }>({
    max: 50_000,
    ttl: 60_000,
  });

  async function collateralHost(id: string) {
    const cached = collateralHosts.get(id);
    if (cached) return cached;
    const [row] = await db
      .select({ ctaUrl: collateral.ctaUrl, organizationId: collateral.organizationId })
      .from(collateral)
      .where(eq(collateral.id, id))
      .limit(1);
    if (!row) return null;
    const value = { host: bareHost(new URL(row.ctaUrl).hostname), organizationId: row.organizationId };
    collateralHosts.set(id, value);
    return value;
  }

  /** Null when the link may not be followed: its url is not the collateral's call-to-action host. */
  async function follow(link: TrackedLink, hit: Hit, shortCode: string | null): Promise<string | null> {
    let target: URL;
    try {
      target = new URL(link.url);
    } catch {
      return null;
    }
    if (target.protocol !== "https:" && target.protocol !== "http:") return null;
    const owner = await collateralHost(link.collateralId);
    if (!owner || owner.organizationId !== link.targetOrgId || owner.host !== bareHost(target.hostname))
      return null;

    const now = new Date();
    const visitorHash = hashVisitor(hit.ip, hit.userAgent, now);
    let referrerHost: string | null = null;
    try {
      referrerHost = hit.referer ? new URL(hit.referer).hostname : null;
    } catch {}
    const verdict = classify({
      method: hit.method,
      userAgent: hit.userAgent,
      referrerHost,
      visitorHash,
      linkKey: `${link.relationshipId}|${link.collateralId}`,
      mailKey: link.sourceOrgId,
      now: now.getTime(),
    });
    const clickId = generateToken(16);
    await recorder.record({
      id: clickId,
      shortCode,
      relationshipId: link.relationshipId,
      collateralId: link.collateralId,
      sourceOrgId: link.sourceOrgId,
      targetOrgId: link.targetOrgId,
      occurredAt: now,
      method: hit.method,
      visitorHash,
      userAgent: hit.userAgent.slice(0, 300) || null,
      referrerHost: referrerHost?.slice(0, 255) ?? null,
      ...verdict,
    });
    return landingUrl(link.url, clickId);
  }

  return { follow, resolveShortCode, close: () => recorder.close() };
}

export type Tracker = ReturnType<typeof createTracker>;
