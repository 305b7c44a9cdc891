import {
  lowerLevel,
  OVERLAP_LEVEL_LABELS,
  OVERLAP_POPULATIONS,
  OVERLAP_SMALLEST_SHOWN,
  type OverlapLevel,
  type OverlapPartner,
  type OverlapPopulation,
  type OverlapSettings,
  type OverlapSummary,
} from "@shared/overlap";
import { and, eq, inArray, ne, or, type SQL, sql } from "drizzle-orm";
import { type Db, type DbOrTx, rowsOf } from "../../db/client";
import {
  memberships,
  organizations,
  overlapPartnerSettings,
  overlapPopulations,
  overlapRuns,
} from "../../db/schema";
import { blockedOrganizationsSql } from "../relationships/block-list";
import { recordSecurityEvent } from "../security-log/security-log.service";
import { discoveryOf, overlapPartner, pairLevels } from "./overlap-pairs";
import {
  cancelRuns,
  listRuns,
  nextRunsAt,
  type OverlapCaller,
  pairKey,
  pairRuns,
  runPartner,
} from "./overlap-runs.service";

export async function overlapSettings(db: DbOrTx, organizationId: string): Promise<OverlapSettings> {
  const [own] = await db
    .select({ discovery: organizations.overlapDiscovery })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  const populations = await db
    .select()
    .from(overlapPopulations)
    .where(eq(overlapPopulations.organizationId, organizationId))
    .orderBy(overlapPopulations.population);
  return {
    discovery: own?.discovery ?? false,
    populations: populations.map((row) => ({
      population: row.population,
      domainCount: row.domainCount,
      updatedAt: row.updatedAt.toISOString(),
    })),
  };
}

/** The browser holds the list; the server learns that it exists and its size, so partners can pick it. */
export async function savePopulation(
  db: DbOrTx,
  organizationId: string,
  population: OverlapPopulation,
  domainCount: number,
) {
  await db
    .insert(overlapPopulations)
    .values({ organizationId, population, domainCount })
    .onConflictDoUpdate({
      target: [overlapPopulations.organizationId, overlapPopulations.population],
      set: { domainCount, updatedAt: new Date() },
    });
}

/** A list removed: its runs in flight end with it, whichever side started them. */
export async function removePopulation(db: DbOrTx, organizationId: string, population: OverlapPopulation) {
  await db.transaction(async (tx) => {
    await tx
      .delete(overlapPopulations)
      .where(
        and(
          eq(overlapPopulations.organizationId, organizationId),
          eq(overlapPopulations.population, population),
        ),
      );
    await cancelRuns(
      tx,
      or(
        and(eq(overlapRuns.starterId, organizationId), eq(overlapRuns.starterPopulation, population)),
        and(eq(overlapRuns.responderId, organizationId), eq(overlapRuns.responderPopulation, population)),
      ),
    );
  });
}

export async function setDiscovery(db: DbOrTx, organizationId: string, enabled: boolean) {
  await db
    .update(organizations)
    .set({ overlapDiscovery: enabled })
    .where(eq(organizations.id, organizationId));
}

/** This side's level and consent for one partner; the security log says who changed the level. */
export async function updatePartnerSettings(
  db: Db,
  caller: OverlapCaller,
  partnerId: string,
  input: { level?: OverlapLevel; consent?: boolean },
): Promise<OverlapPartner> {
  await db.transaction(async (tx) => {
    const partner = await overlapPartner(tx, caller.organizationId, partnerId);
    const before = await pairLevels(tx, caller.organizationId, partner.id);
    const level = input.level ?? before.own;
    const consentedAt = input.consent === undefined ? undefined : input.consent ? sql`now()` : null;
    await tx
      .insert(overlapPartnerSettings)
      .values({
        organizationId: caller.organizationId,
        partnerId: partner.id,
        level,
        consentedAt: input.consent ? new Date() : null,
      })
      .onConflictDoUpdate({
        target: [overlapPartnerSettings.organizationId, overlapPartnerSettings.partnerId],
        set: {
          level,
          updatedAt: new Date(),
          ...(consentedAt === undefined
            ? {}
            : {
                consentedAt:
                  consentedAt === null ? null : sql`coalesce(${overlapPartnerSettings.consentedAt}, now())`,
              }),
        },
      });
    if (level !== before.own) {
      await recordSecurityEvent(tx, caller, {
        action: "overlap_sharing_changed",
        organizationId: caller.organizationId,
        target: `${partner.name}: ${OVERLAP_LEVEL_LABELS[before.own]} → ${OVERLAP_LEVEL_LABELS[level]}`,
      });
      // Runs that may not go on at the new level end now, their points with them: all of them
      // once Hidden, and answers kept in order for Overlaps once it is lower. A step under way on
      // one of them holds its row: this waits for it, and then ends what it left in flight.
      const effective = lowerLevel(level, before.partner);
      await cancelRuns(
        tx,
        and(
          pairRuns(caller.organizationId, partner.id),
          effective === "hidden" ? undefined : ne(overlapRuns.level, effective),
        ),
      );
    }
  });
  return partnerOverlap(db, caller.organizationId, partnerId);
}

/** Everything a Buddy's page shows of the overlap with that partner. */
export async function partnerOverlap(
  db: DbOrTx,
  organizationId: string,
  partnerId: string,
): Promise<OverlapPartner> {
  const partner = await overlapPartner(db, organizationId, partnerId);
  const levels = await pairLevels(db, organizationId, partner.id);
  const theirs = await db
    .select({ population: overlapPopulations.population })
    .from(overlapPopulations)
    .where(eq(overlapPopulations.organizationId, partner.id));
  const runs = await listRuns(db, organizationId, { partnerId: partner.id, limit: 50 });
  const latest = new Map<string, (typeof runs)[number]>();
  for (const run of runs) {
    const key = `${run.population}:${run.partnerPopulation}`;
    if (run.status === "completed" && !latest.has(key)) latest.set(key, run);
  }
  const pairs = OVERLAP_POPULATIONS.flatMap((mine) =>
    OVERLAP_POPULATIONS.map((other) => ({
      label: `${mine}:${other}`,
      key: pairKey(organizationId, mine, partner.id, other),
    })),
  );
  const next = await nextRunsAt(
    db,
    pairs.map((pair) => pair.key),
  );
  const nextRunAtByPair: Record<string, string> = {};
  for (const pair of pairs) {
    const at = next.get(pair.key);
    if (at) nextRunAtByPair[pair.label] = at.toISOString();
  }
  return {
    partner: { id: partner.id, name: partner.name },
    level: levels.own,
    effectiveLevel: levels.effective,
    consented: levels.consented,
    partnerPopulations: theirs.map((row) => row.population).sort(),
    nextRunAt: nextRunAtByPair,
    results: [...latest.values()],
    pending: runs.filter((run) => run.status === "waiting" || run.status === "answered"),
  };
}

/** The latest completed customers × customers run with each partner: partner_id, overlap_count, completed_at. */
function latestCustomerRuns(organizationId: string): SQL {
  return sql`
    select distinct on (partner_id) partner_id, overlap_count, completed_at
    from (
      select ${runPartner(organizationId)} as partner_id,
        ${overlapRuns.overlapCount} as overlap_count, ${overlapRuns.completedAt} as completed_at
      from ${overlapRuns}
      where ${overlapRuns.status} = 'completed'
        and ${overlapRuns.starterPopulation} = 'customers' and ${overlapRuns.responderPopulation} = 'customers'
        and (${overlapRuns.starterId} = ${organizationId} or ${overlapRuns.responderId} = ${organizationId})
    ) runs
    order by partner_id, completed_at desc`;
}

/**
 * The latest customers × customers count with each partner, for the Buddies list's column and the
 * suggestions. Counts under 5 stay null, as everywhere.
 */
export async function overlapSummary(db: DbOrTx, organizationId: string): Promise<OverlapSummary> {
  const result = await db.execute(sql`
    select partner_id, overlap_count, completed_at from (${latestCustomerRuns(organizationId)}) latest
    where partner_id not in (${blockedOrganizationsSql(organizationId)})`);
  const list = rowsOf<{ partner_id: string; overlap_count: number | null; completed_at: Date | string }>(
    result,
  );
  return {
    partners: list.map((row) => ({
      partnerId: row.partner_id,
      customers:
        row.overlap_count !== null && row.overlap_count >= OVERLAP_SMALLEST_SHOWN ? row.overlap_count : null,
      customersRun: true,
      completedAt: new Date(row.completed_at).toISOString(),
    })),
  };
}

/**
 * Organizations one may compare lists with without being Buddies: proven, on Buddy, opted into
 * discovery, and not blocked either way. Only for an organization that opted in and is proven itself.
 */
export async function discoverableOrganizations(db: DbOrTx, organizationId: string) {
  const own = await discoveryOf(db, organizationId);
  if (!own?.discovery || !own.proven) return [];
  return db
    .select({ id: organizations.id, name: organizations.name, domain: organizations.domain })
    .from(organizations)
    .where(
      and(
        ne(organizations.id, organizationId),
        eq(organizations.overlapDiscovery, true),
        sql`${organizations.domainVerifiedAt} is not null`,
        inArray(
          organizations.id,
          db
            .selectDistinct({ id: memberships.organizationId })
            .from(memberships)
            .where(eq(memberships.status, "active")),
        ),
        sql`${organizations.id} not in (${blockedOrganizationsSql(organizationId)})`,
      ),
    )
    .orderBy(organizations.name)
    .limit(200);
}

export type DiscoveryOverlap = { partnerId: string; name: string; domain: string; count: number };

/**
 * CONTRACT §11's suggestions: proven organizations that opted into discovery, as this one did,
 * ordered by the latest customers × customers count with them (5 or more: a smaller count is
 * never shown). Blocked pairs never appear.
 */
export async function discoveryOverlaps(db: DbOrTx, organizationId: string): Promise<DiscoveryOverlap[]> {
  const result = await db.execute(sql`
    select partner_id, o.name, o.domain, overlap_count from (${latestCustomerRuns(organizationId)}) latest
    join ${organizations} o on o.id = latest.partner_id
    join ${organizations} own on own.id = ${organizationId}
    where latest.overlap_count >= ${OVERLAP_SMALLEST_SHOWN}
      and o.overlap_discovery and o.domain_verified_at is not null
      and own.overlap_discovery and own.domain_verified_at is not null
      and latest.partner_id not in (${blockedOrganizationsSql(organizationId)})
    order by latest.overlap_count desc, o.name`);
  return rowsOf<{ partner_id: string; name: string; domain: string; overlap_count: number }>(result).map(
    (row) => ({
      partnerId: row.partner_id,
      name: row.name,
      domain: row.domain,
      count: Number(row.overlap_count),
    }),
  );
}
