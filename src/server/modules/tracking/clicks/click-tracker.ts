import { createHmac } from "node:crypto";
import type { ClickReason } from "@shared/click-reasons";
import { urlIsOnDomain } from "@shared/website";
import { eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import { CHANNELS, type ChangeNotifications } from "../../../db/change-notifications";
import type { Db } from "../../../db/client";
import {
  collateral,
  deletedOrganizations as deletedOrganizationsTable,
  organizations,
} from "../../../db/schema";
import { networkSource } from "../../../lib/client-network";
import { type CommittedBatch, createGroupCommit, type Refusal } from "../../../lib/group-commit";
import { blockedOrganizationsSql } from "../../relationships/block-list";
import { landingUrl, type TrackedLink } from "../links/link-signature";
import { linkCounts } from "../links/live-ads";
import { createClickClassifier } from "./click-classifier";
import type { ClickIds } from "./click-id";
import type { MemoryLog } from "./click-memory";
import { type StoredClick, storeClicks } from "./click-store";
import { createVisitorHasher, type VisitorSalts } from "./visitor-hash";

/** Stands for the click id while the landing URL is built once per target; never URL-encoded. */
const CLICK_ID_SLOT = "BUDDYCLICKIDSLOT";

export type Hit = {
  method: string;
  ip: string;
  userAgent: string;
  referer: string | undefined;
  /** The request's logger, for what judging the hit finds (a Redis outage). */
  log: MemoryLog;
};

/** Clicks of one millisecond share its formatted time: formatting shows in redirect profiles. */
let isoMs = -1;
let iso = "";
function isoTime(ms: number) {
  if (ms !== isoMs) {
    isoMs = ms;
    iso = new Date(ms).toISOString();
  }
  return iso;
}

/** An ad's author: the advertised company, or the Buddy that wrote the ad for it. */
const authors = alias(organizations, "author");

/** Hosts compare without a leading www., as domains do everywhere else (CONTRACT §4). */
const bareHost = (host: string) => host.toLowerCase().replace(/^www\./, "");

/** What a followed link needs to know of its ad, kept in memory per collateral. */
type AdOwner = {
  host: string;
  organizationId: string;
  /** Live: neither a draft nor written by an unproven author (links/live-ads.ts). */
  counts: boolean;
  /** The organizations on either side of the advertiser's block list: their links count nothing. */
  blocked: ReadonlySet<string>;
};
type Verdict = { bot: boolean; botReason: string | null; duplicate: boolean; reason: ClickReason };

/** Most advertisers block nobody: they share one empty set. */
const NOBODY: ReadonlySet<string> = new Set();

/**
 * The redirect path: link lookups from memory, a verdict per hit, the click committed to the
 * shared database by group commit, then the landing URL with its bclickid (a person's hit only).
 */
export function createClickTracker(deps: {
  db: Db;
  clickIds: ClickIds;
  /** Keys network sources (APP_SECRET): the memories of the click rules hold no address. */
  secret: string;
  redis?: Redis;
  notifications?: ChangeNotifications;
  visitorSalts: VisitorSalts;
  onCommit?: (batch: CommittedBatch) => void;
  onRefusal?: (refusal: Refusal) => void;
}) {
  const { db, clickIds } = deps;
  const clicks = createGroupCommit<StoredClick>({
    write: (rows) => storeClicks(db, rows),
    onCommit: deps.onCommit,
    onRefusal: deps.onRefusal,
  });
  const classify = createClickClassifier({ redis: deps.redis });
  const hashVisitor = createVisitorHasher(deps.visitorSalts);
  // A network source's key is stable (a sign-in is remembered for 30 days), so it is keyed with the
  // app's secret rather than the day's salt. Most clicks come from addresses seen before: the
  // address's key (null for loopback) is remembered rather than parsed and hashed again.
  const sourceKeys = new LRUCache<string, { key: string | null }>({ max: 50_000 });
  function sourceKeyOf(ip: string): string | null {
    let known = sourceKeys.get(ip);
    if (known === undefined) {
      const network = networkSource(ip);
      known = {
        key:
          network === null
            ? null
            : createHmac("sha256", deps.secret)
                .update(`network-source|${network}`)
                .digest("base64url")
                .slice(0, 22),
      };
      sourceKeys.set(ip, known);
    }
    return known.key;
  }
  // A collateral's host, status, author's proof and its advertiser's block list rarely change. A
  // change is announced to every instance like any change of collateral, organization or
  // relationship (the ads' channel); the minute's expiry bounds a missed announcement. An entry
  // read while a change was announced is not kept: it may hold what the change replaced.
  const collateralHosts = new LRUCache<string, AdOwner>({ max: 50_000, ttl: 60_000 });
  // Issue 38: whether an organization was deleted, kept and dropped like the hosts (a deletion
  // announces itself on the same channel).
  const deletedOrganizations = new LRUCache<string, boolean>({ max: 50_000, ttl: 60_000 });
  let generation = 0;
  const forgetHosts = () => {
    generation++;
    collateralHosts.clear();
    deletedOrganizations.clear();
  };
  deps.notifications?.subscribe(CHANNELS.adsChanged, { onNotify: forgetHosts, onGap: forgetHosts });

  // Links are followed many times: their target is parsed once (host, and the landing URL
  // around the click id, exactly as landingUrl writes it).
  const targets = new LRUCache<
    string,
    { host: string; landingPrefix: string; landingSuffix: string; landingWithoutId: string } | false
  >({ max: 50_000 });
  function parseTarget(url: string) {
    let parsed = targets.get(url);
    if (parsed === undefined) {
      parsed = false;
      try {
        const target = new URL(url);
        if (target.protocol === "https:" || target.protocol === "http:") {
          const [landingPrefix = "", landingSuffix = ""] = landingUrl(url, CLICK_ID_SLOT).split(
            CLICK_ID_SLOT,
          );
          parsed = {
            host: bareHost(target.hostname),
            landingPrefix,
            landingSuffix,
            landingWithoutId: landingUrl(url, null),
          };
        }
      } catch {}
      targets.set(url, parsed);
    }
    return parsed || null;
  }

  async function loadCollateralHost(id: string): Promise<AdOwner | null> {
    const seen = generation;
    const [row] = await db
      .select({
        ctaUrl: collateral.ctaUrl,
        organizationId: collateral.organizationId,
        status: collateral.status,
        domain: organizations.domain,
        authorVerifiedAt: authors.domainVerifiedAt,
        // CONTRACT §5: a click between a pair either of which blocks the other counts nothing.
        blocked: sql<string[]>`array(${blockedOrganizationsSql(collateral.organizationId)})`,
      })
      .from(collateral)
      .innerJoin(organizations, eq(organizations.id, collateral.organizationId))
      .innerJoin(authors, eq(authors.id, collateral.createdByOrganizationId))
      .where(eq(collateral.id, id))
      .limit(1);
    if (!row) return null;
    // CONTRACT §5: an ad that no longer points at its company's own site is followed nowhere.
    const value: AdOwner = urlIsOnDomain(row.ctaUrl, row.domain)
      ? {
          host: bareHost(new URL(row.ctaUrl).hostname),
          organizationId: row.organizationId,
          counts: linkCounts({ status: row.status, authorProven: row.authorVerifiedAt !== null }),
          blocked: row.blocked.length > 0 ? new Set(row.blocked) : NOBODY,
        }
      : { host: "", organizationId: "", counts: false, blocked: NOBODY };
    if (generation === seen) collateralHosts.set(id, value);
    return value;
  }

  async function loadDeleted(organizationId: string): Promise<boolean> {
    const seen = generation;
    const [row] = await db
      .select({ id: deletedOrganizationsTable.id })
      .from(deletedOrganizationsTable)
      .where(eq(deletedOrganizationsTable.id, organizationId))
      .limit(1);
    if (generation === seen) deletedOrganizations.set(organizationId, row !== undefined);
    return row !== undefined;
  }
  const isDeleted = (organizationId: string) =>
    deletedOrganizations.get(organizationId) ?? loadDeleted(organizationId);

  /**
   * Null when the link may not be followed: its url is not the collateral's call-to-action host.
   * A link whose ad is not live (a draft, an unproven author), or that a sharer blocked by the
   * advertiser, or blocking it, had kept, still takes the reader to the page; its click is stored
   * with its reason, counts nothing and carries no click id a lead could be recorded with.
   */
  async function follow(link: TrackedLink, hit: Hit, shortCode: string | null): Promise<string | null> {
    const target = parseTarget(link.url);
    if (!target) return null;
    // From memory without a promise: most clicks follow links already seen.
    const owner = collateralHosts.get(link.collateralId) ?? (await loadCollateralHost(link.collateralId));
    // A deleted organization's links take readers to the page they were made for, and record
    // nothing: not its ads' clicks (the ad is gone with it), nor clicks on the links it shared.
    if (!owner) {
      // An ad gone with a deleted organization: its own, or one it wrote for a partner.
      const gone = (await isDeleted(link.targetOrgId)) || (await isDeleted(link.sourceOrgId));
      return gone ? target.landingWithoutId : null;
    }
    if (owner.organizationId !== link.targetOrgId || owner.host !== target.host) return null;
    const sharerDeleted = isDeleted(link.sourceOrgId);
    if (sharerDeleted === true || (sharerDeleted !== false && (await sharerDeleted)))
      return target.landingWithoutId;

    const now = Date.now();
    const visitorHash = hashVisitor(hit.ip, hit.userAgent, now);
    let referrerHost: string | null = null;
    try {
      referrerHost = hit.referer ? new URL(hit.referer).hostname : null;
    } catch {}
    const store = (clickId: string, verdict: Verdict) =>
      clicks.add({
        id: clickId,
        short_code: shortCode,
        relationship_id: link.relationshipId,
        collateral_id: link.collateralId,
        source_org_id: link.sourceOrgId,
        target_org_id: link.targetOrgId,
        occurred_at: isoTime(now),
        method: hit.method,
        visitor_hash: visitorHash,
        user_agent: hit.userAgent.slice(0, 300) || null,
        referrer_host: referrerHost?.slice(0, 255) ?? null,
        bot: verdict.bot,
        bot_reason: verdict.botReason,
        duplicate: verdict.duplicate,
        verified: verdict.reason === "counted",
        reason: verdict.reason,
      });

    const refused: ClickReason | null = owner.blocked.has(link.sourceOrgId)
      ? "blocked"
      : owner.counts
        ? null
        : "not_live";
    if (refused) {
      // Kept so the sender can see why it counted nothing; the memories are not asked (nothing of
      // it could count) and its id proves nothing.
      await store(clickIds.issue(link.sourceOrgId, link.targetOrgId, now, false), {
        bot: false,
        botReason: null,
        duplicate: false,
        reason: refused,
      });
      return target.landingWithoutId;
    }

    const judged = classify({
      method: hit.method,
      userAgent: hit.userAgent,
      referrerHost,
      visitorHash,
      linkKey: `${link.relationshipId}|${link.collateralId}`,
      mailKey: link.sourceOrgId,
      pairKey: `${link.sourceOrgId}>${link.targetOrgId}`,
      source: sourceKeyOf(hit.ip),
      now,
      log: hit.log,
    });
    // Judged in memory without Redis: no promise to wait for.
    const verdict = judged instanceof Promise ? await judged : judged;
    // CONTRACT §5: a hit that is not a person's is kept but can record no lead. Its stored id
    // proves nothing, and the reader lands without one, so a landing page keeps the click id of
    // the person's own earlier click (click.js) rather than have it replaced by nothing usable.
    // The sender's own click is treated the same: a sender must not make its own leads, or proof
    // for its ad weight, by signing up at its partner through its own links. A reader's click
    // that does not count otherwise (a repeat, past the source's allowance) is still a person's:
    // a lead it brings is the advertiser's to record.
    const usable = !verdict.bot && verdict.reason !== "own_click";
    const clickId = clickIds.issue(link.sourceOrgId, link.targetOrgId, now, usable);
    await store(clickId, verdict);
    return usable ? target.landingPrefix + clickId + target.landingSuffix : target.landingWithoutId;
  }

  /**
   * CONTRACT §5: a member of these organizations signed in from this client address; its network
   * source's clicks on their links are their own for 30 days. Nothing for a loopback address.
   */
  async function rememberSignIn(organizationIds: readonly string[], ip: string, log: MemoryLog) {
    const source = sourceKeyOf(ip);
    if (source === null || organizationIds.length === 0) return;
    await classify.rememberSignIn(organizationIds, source, log);
  }

  return {
    follow,
    rememberSignIn,
    /** Waits for the clicks being committed (their requests are still waiting); run on close. */
    close: () => clicks.drain(),
  };
}

export type ClickTracker = ReturnType<typeof createClickTracker>;
