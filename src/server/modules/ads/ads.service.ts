import type { Ad } from "@shared/ads";
import { and, eq, inArray, or } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Db } from "../../db/client";
import { collateral, organizations, relationships } from "../../db/schema";
import { blockedOrganizationIds } from "../relationships/block-list";
import { signTrackedLink } from "../tracking/link-signature";
import { shortenTrackedLink } from "../tracking/short-links.service";

export type EligibleAd = Omit<Ad, "ctaUrl"> & {
  relationshipId: string;
  targetOrgId: string;
  targetUrl: string;
};

export const ELIGIBLE_CACHE_MS = 5 * 60_000;

/**
 * CONTRACT §6: the caller's active complementary relationships' active collateral (and the
 * suggested ones' when asked), never anyone on either side of its block list.
 */
export async function loadEligibleAds(
  db: Db,
  organizationId: string,
  includeSuggestions: boolean,
): Promise<EligibleAd[]> {
  const blocked = new Set(await blockedOrganizationIds(db, organizationId));
  const statuses = includeSuggestions ? (["active", "suggested"] as const) : (["active"] as const);
  const rows = await db
    .select({ relationship: relationships, item: collateral, company: organizations })
    .from(relationships)
    .innerJoin(organizations, eq(organizations.id, relationships.targetOrgId))
    .innerJoin(collateral, eq(collateral.organizationId, relationships.targetOrgId))
    .where(
      and(
        eq(relationships.sourceOrgId, organizationId),
        eq(relationships.type, "complement"),
        inArray(relationships.status, [...statuses]),
        eq(collateral.status, "active"),
        // The company's own ads, and the ones the caller wrote for it.
        or(
          eq(collateral.createdByOrganizationId, relationships.targetOrgId),
          eq(collateral.createdByOrganizationId, organizationId),
        ),
      ),
    );
  return rows
    .filter((row) => !blocked.has(row.company.id))
    .map(({ relationship, item, company }) => ({
      id: item.id,
      name: item.name,
      description: item.description,
      ctaText: item.ctaText,
      targetUrl: item.ctaUrl,
      imageUrl: item.imageUrl,
      company: {
        name: company.name,
        website: company.website,
        description: company.description,
        domain: company.domain,
      },
      relationshipId: relationship.id,
      targetOrgId: company.id,
    }));
}

/** Fisher–Yates on a copy: a fair random pick of `limit` ads. */
export function pickRandom<T>(items: readonly T[], limit: number, random = Math.random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, limit);
}

/**
 * The eligible set is cached five minutes per organization (CONTRACT §6) and dropped at once
 * when collateral or relationships change here. Short codes never change, so they are cached
 * for good.
 */
export function createAdsService(deps: { db: Db; publicUrl: string; secret: string }) {
  const eligible = new LRUCache<string, EligibleAd[]>({ max: 10_000, ttl: ELIGIBLE_CACHE_MS });
  const shortUrls = new LRUCache<string, string>({ max: 100_000 });

  async function shortUrlFor(organizationId: string, ad: EligibleAd): Promise<string> {
    const key = `${organizationId}|${ad.relationshipId}|${ad.id}|${ad.targetUrl}`;
    const cached = shortUrls.get(key);
    if (cached) return cached;
    const longUrl = signTrackedLink(deps.publicUrl, deps.secret, {
      relationshipId: ad.relationshipId,
      collateralId: ad.id,
      sourceOrgId: organizationId,
      targetOrgId: ad.targetOrgId,
      url: ad.targetUrl,
    });
    const code = await shortenTrackedLink(deps.db, {
      publicUrl: deps.publicUrl,
      secret: deps.secret,
      longUrl,
    });
    const shortUrl = `${deps.publicUrl}/s/${code}`;
    shortUrls.set(key, shortUrl);
    return shortUrl;
  }

  return {
    async pickAds(
      organizationId: string,
      options: { limit: number; includeSuggestions: boolean },
    ): Promise<Ad[]> {
      const key = `${organizationId}|${options.includeSuggestions}`;
      let ads = eligible.get(key);
      if (!ads) {
        ads = await loadEligibleAds(deps.db, organizationId, options.includeSuggestions);
        eligible.set(key, ads);
      }
      const picked = pickRandom(ads, options.limit);
      return Promise.all(
        picked.map(async ({ relationshipId: _r, targetOrgId: _t, targetUrl: _u, ...ad }, i) => ({
          ...ad,
          ctaUrl: await shortUrlFor(organizationId, picked[i] as EligibleAd),
        })),
      );
    },
    /** Called after any change to collateral or relationships. */
    invalidate() {
      eligible.clear();
    },
  };
}

export type AdsService = ReturnType<typeof createAdsService>;
