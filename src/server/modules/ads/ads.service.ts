import { type Ad, adSchema } from "@shared/ads";
import { urlIsOnDomain } from "@shared/website";
import { and, eq, inArray, or } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { CHANNELS, type ChangeNotifications } from "../../db/change-notifications";
import type { Db } from "../../db/client";
import { collateral, organizations, relationships } from "../../db/schema";
import { partnerWeights } from "../reciprocity/ad-weights";
import { blockedOrganizationIds } from "../relationships/block-list";
import { signTrackedLink } from "../tracking/links/link-signature";
import { shortenTrackedLink } from "../tracking/links/short-links.service";
import { pickWeighted, type RotationPartner, rotationOf } from "./ad-rotation";

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
  const [caller] = await db
    .select({ domainVerifiedAt: organizations.domainVerifiedAt })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return (
    rows
      .filter((row) => !blocked.has(row.company.id))
      // Checked again as served (CONTRACT §4, §5): the ad's author has proven its domain, and the ad
      // still points at the advertised company's own site.
      .filter(({ item, company }) => {
        const author = item.createdByOrganizationId === company.id ? company : caller;
        return (
          author?.domainVerifiedAt != null &&
          urlIsOnDomain(item.ctaUrl, company.domain) &&
          (!item.imageUrl || urlIsOnDomain(item.imageUrl, company.domain))
        );
      })
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
      }))
  );
}

/** An ad as served, with its JSON text made once per cached eligible set rather than per request. */
export type ServedAd = { ad: Ad; json: string };

type CachedAd = EligibleAd & { served?: ServedAd };
/** What is cached per organization: its eligible ads, grouped by partner with their weights. */
type EligibleSet = RotationPartner<CachedAd>[];

/** CONTRACT §6 json body from ads already checked against adSchema when they were cached. */
export function adsJsonBody(ads: readonly ServedAd[]): string {
  return `{"ads":[${ads.map((served) => served.json).join(",")}]}`;
}

/**
 * The eligible set is cached five minutes per organization (CONTRACT §6) and dropped on every
 * instance when collateral, relationships or an organization change (the services that change
 * them publish CHANNELS.adsChanged in their transaction), or when the change listener had a gap.
 * Unlike API keys it stays in use while the listener is down: the five minutes already bound how
 * stale it may be. Short codes never change, so they are cached for good.
 */
export function createAdsService(deps: {
  db: Db;
  notifications: ChangeNotifications;
  publicUrl: string;
  secret: string;
  /** The draws of the rotation (tests seed it). */
  random?: () => number;
}) {
  const random = deps.random ?? Math.random;
  const eligible = new LRUCache<string, EligibleSet>({ max: 10_000, ttl: ELIGIBLE_CACHE_MS });
  // Concurrent misses share one load, so an invalidation under load costs one query per key.
  const loading = new Map<string, { generation: number; load: Promise<EligibleSet> }>();
  const shortUrls = new LRUCache<string, string>({ max: 100_000 });
  // Changes with every invalidation: a load that raced one is neither cached nor shared.
  let generation = 0;
  const dropAll = () => {
    eligible.clear();
    loading.clear();
    generation++;
  };
  deps.notifications.subscribe(CHANNELS.adsChanged, { onNotify: dropAll, onGap: dropAll });

  /** The partners' weights are read with the ads and cached with them (CONTRACT §10). */
  async function loadEligibleSet(organizationId: string, includeSuggestions: boolean): Promise<EligibleSet> {
    const [ads, weights] = await Promise.all([
      loadEligibleAds(deps.db, organizationId, includeSuggestions),
      partnerWeights(deps.db, organizationId),
    ]);
    return rotationOf<CachedAd>(ads, weights);
  }

  function eligibleAds(
    organizationId: string,
    includeSuggestions: boolean,
  ): Promise<EligibleSet> | EligibleSet {
    const key = `${organizationId}|${includeSuggestions}`;
    const cached = eligible.get(key);
    if (cached) return cached;
    const pending = loading.get(key);
    if (pending && pending.generation === generation) return pending.load;
    const seen = generation;
    const load = loadEligibleSet(organizationId, includeSuggestions).finally(() => {
      if (loading.get(key)?.load === load) loading.delete(key);
    });
    loading.set(key, { generation: seen, load });
    return load.then((ads) => {
      if (seen === generation) eligible.set(key, ads);
      return ads;
    });
  }

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

  async function serve(organizationId: string, cachedAd: CachedAd): Promise<ServedAd> {
    const { relationshipId: _r, targetOrgId: _t, targetUrl: _u, served: _s, ...rest } = cachedAd;
    // The schema strips anything not in SPEC §3, as the response schema would per request.
    const ad = adSchema.parse({ ...rest, ctaUrl: await shortUrlFor(organizationId, cachedAd) });
    cachedAd.served = { ad, json: JSON.stringify(ad) };
    return cachedAd.served;
  }

  function pickFrom(organizationId: string, partners: EligibleSet, limit: number) {
    const picked = pickWeighted(partners, limit, random);
    const served: ServedAd[] = [];
    for (const ad of picked) {
      if (!ad.served) return Promise.all(picked.map((each) => each.served ?? serve(organizationId, each)));
      served.push(ad.served);
    }
    return served;
  }

  return {
    /**
     * The ads, at once when the eligible set is cached and each picked ad has been served from it
     * before (the common case: no promise, no turn of the event loop); otherwise a promise.
     */
    pickAds(
      organizationId: string,
      options: { limit: number; includeSuggestions: boolean },
    ): ServedAd[] | Promise<ServedAd[]> {
      const partners = eligibleAds(organizationId, options.includeSuggestions);
      if (Array.isArray(partners)) return pickFrom(organizationId, partners, options.limit);
      return partners.then((loaded) => pickFrom(organizationId, loaded, options.limit));
    },
  };
}

export type AdsService = ReturnType<typeof createAdsService>;
