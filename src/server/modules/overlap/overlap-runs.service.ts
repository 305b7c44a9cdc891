import {
  DEFAULT_OVERLAP_LEVEL,
  lowerLevel,
  OVERLAP_MESSAGES,
  OVERLAP_POPULATION_LABELS,
  OVERLAP_RUN_INTERVAL_HOURS,
  OVERLAP_RUN_TTL_DAYS,
  OVERLAP_SMALLEST_SHOWN,
  type OverlapLevel,
  type OverlapPopulation,
  type OverlapRun,
  type OverlapRunWork,
} from "@shared/overlap";
import { runResult } from "@shared/overlap-protocol";
import { and, desc, eq, gt, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { overlapPartnerSettings, overlapPopulations, overlapRuns } from "../../db/schema";
import { AppError, conflict, notFound } from "../../errors";
import { queueNotice } from "../notifications/notices";
import { blockedOrganizationsSql } from "../relationships/block-list";
import { recordSecurityEvent, type SecurityActor } from "../security-log/security-log.service";
import { queueOverlapCompleted } from "../webhooks/webhook-events";
import { organizationNames, overlapPartner, pairLevels } from "./overlap-pairs";
import { packPoints, pointCount, unpackPoints } from "./overlap-points";

/** Who acts: an admin in the dashboard (userId) or the organization's own server (an API key). */
export type OverlapCaller = SecurityActor & { organizationId: string };

type RunRow = typeof overlapRuns.$inferSelect;
const IN_FLIGHT = ["waiting", "answered"] as const;
const HOUR_MS = 3_600_000;

/** A run's other side, seen from `organizationId`, as an SQL expression. */
export function runPartner(organizationId: string): SQL {
  return sql`(case when ${overlapRuns.starterId} = ${organizationId} then ${overlapRuns.responderId}
    else ${overlapRuns.starterId} end)`;
}

/** One key for a pair of lists, whoever starts: `org:population` of both sides, sorted. */
export function pairKey(one: string, onePopulation: string, other: string, otherPopulation: string) {
  return [`${one}:${onePopulation}`, `${other}:${otherPopulation}`].sort().join("|");
}

/** A run is over 7 days after it started, whatever its state (CONTRACT §11). */
const isOver = (row: RunRow, now: Date) => row.expiresAt.getTime() <= now.getTime();

function statusOf(row: RunRow, now: Date): OverlapRun["status"] {
  return (row.status === "waiting" || row.status === "answered") && isOver(row, now) ? "expired" : row.status;
}

/** A run as one side sees it: its own population first, its own matches, small counts withheld. */
export function toRun(
  row: RunRow,
  organizationId: string,
  names: Map<string, string>,
  now = new Date(),
): OverlapRun {
  const started = row.starterId === organizationId;
  const partnerId = started ? row.responderId : row.starterId;
  const shown = row.overlapCount !== null && row.overlapCount >= OVERLAP_SMALLEST_SHOWN;
  return {
    id: row.id,
    partner: { id: partnerId, name: names.get(partnerId) ?? "Deleted organization" },
    started,
    population: started ? row.starterPopulation : row.responderPopulation,
    partnerPopulation: started ? row.responderPopulation : row.starterPopulation,
    status: statusOf(row, now),
    level: row.level,
    count: shown ? row.overlapCount : null,
    matches: shown ? ((started ? row.starterMatches : row.responderMatches) ?? null) : null,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * When a run of each of these pairs of lists may next start: 24 h after its latest one. A pair
 * that may run now is absent. One statement for any number of pairs.
 */
export async function nextRunsAt(db: DbOrTx, keys: string[], now = new Date()): Promise<Map<string, Date>> {
  const rows = await db
    .select({ key: overlapRuns.pairKey, latest: sql<string>`max(${overlapRuns.createdAt})` })
    .from(overlapRuns)
    .where(
      and(
        inArray(overlapRuns.pairKey, keys),
        gt(overlapRuns.createdAt, new Date(now.getTime() - OVERLAP_RUN_INTERVAL_HOURS * HOUR_MS)),
      ),
    )
    .groupBy(overlapRuns.pairKey);
  return new Map(
    rows.map((row) => [
      row.key,
      new Date(new Date(row.latest).getTime() + OVERLAP_RUN_INTERVAL_HOURS * HOUR_MS),
    ]),
  );
}

/** Taking a step is consent to runs with this partner (asked once per partner, CONTRACT §11). */
async function consent(tx: DbOrTx, organizationId: string, partnerId: string) {
  await tx
    .insert(overlapPartnerSettings)
    .values({ organizationId, partnerId, level: DEFAULT_OVERLAP_LEVEL, consentedAt: new Date() })
    .onConflictDoUpdate({
      target: [overlapPartnerSettings.organizationId, overlapPartnerSettings.partnerId],
      set: { consentedAt: sql`coalesce(${overlapPartnerSettings.consentedAt}, now())` },
    });
}

const label = (population: OverlapPopulation) => OVERLAP_POPULATION_LABELS[population].toLowerCase();

/** The actor of an entry Buddy writes for a side that did not act (its partner did). */
const NOBODY: SecurityActor = { userId: null, ipAddress: null };

async function hasList(tx: DbOrTx, organizationId: string, population: OverlapPopulation) {
  const [row] = await tx
    .select({ population: overlapPopulations.population })
    .from(overlapPopulations)
    .where(
      and(
        eq(overlapPopulations.organizationId, organizationId),
        eq(overlapPopulations.population, population),
      ),
    );
  return Boolean(row);
}

/** A run's entry in one side's security log: the partner and both lists, never a count. */
function runTarget(row: RunRow, organizationId: string, names: Map<string, string>) {
  const started = row.starterId === organizationId;
  const partnerId = started ? row.responderId : row.starterId;
  const own = started ? row.starterPopulation : row.responderPopulation;
  const theirs = started ? row.responderPopulation : row.starterPopulation;
  return `${names.get(partnerId) ?? "Deleted organization"}: your ${label(own)} × their ${label(theirs)}`;
}

/** Writes one entry in each side's log for each run. */
async function logBothSides(
  tx: DbOrTx,
  rows: RunRow[],
  action: "overlap_run_completed" | "overlap_run_cancelled",
) {
  const names = await organizationNames(
    tx,
    rows.flatMap((row) => [row.starterId, row.responderId]),
  );
  for (const row of rows) {
    for (const side of [row.starterId, row.responderId]) {
      await recordSecurityEvent(tx, NOBODY, {
        action,
        organizationId: side,
        target: runTarget(row, side, names),
      });
    }
  }
}

/**
 * Ends the runs in flight that match `condition` and may not go on (a side went Hidden or below
 * the level an answer was kept at, a list was removed, the pair blocked): their points go at once,
 * and both sides' logs say so. Waits for a step under way on the same run (its row lock).
 */
export async function cancelRuns(
  tx: DbOrTx,
  condition: SQL | undefined,
  { log = true }: { log?: boolean } = {},
): Promise<number> {
  const rows = await tx
    .update(overlapRuns)
    .set({ status: "cancelled", starterPoints: null, responderDoubled: null, responderPoints: null })
    .where(and(inArray(overlapRuns.status, [...IN_FLIGHT]), condition))
    .returning();
  if (log) await logBothSides(tx, rows, "overlap_run_cancelled");
  return rows.length;
}

/** The runs in flight between two organizations, in either role. */
export function pairRuns(one: string, other: string): SQL | undefined {
  return or(
    and(eq(overlapRuns.starterId, one), eq(overlapRuns.responderId, other)),
    and(eq(overlapRuns.starterId, other), eq(overlapRuns.responderId, one)),
  );
}

export type StartRunInput = {
  partnerId: string;
  population: OverlapPopulation;
  partnerPopulation: OverlapPopulation;
  points: string[];
};

/** Step 1 (CONTRACT §11): A's points for one of its lists against one of the partner's. */
export async function startRun(db: Db, caller: OverlapCaller, input: StartRunInput): Promise<OverlapRun> {
  return db.transaction(async (tx) => {
    const partner = await overlapPartner(tx, caller.organizationId, input.partnerId);
    const levels = await pairLevels(tx, caller.organizationId, partner.id);
    if (levels.effective === "hidden") throw conflict(OVERLAP_MESSAGES.hidden);
    if (!(await hasList(tx, partner.id, input.partnerPopulation)))
      throw conflict(`${partner.name} has no ${label(input.partnerPopulation)} list on Buddy yet`);
    if (!(await hasList(tx, caller.organizationId, input.population))) {
      throw conflict(`Declare your ${label(input.population)} list before comparing it`);
    }

    const key = pairKey(caller.organizationId, input.population, partner.id, input.partnerPopulation);
    // Two starts of the same pair at once (either side, any instance) queue here: one run wins.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('overlap_runs'), hashtext(${key}))`);
    const now = new Date();
    const next = (await nextRunsAt(tx, [key], now)).get(key);
    if (next) {
      throw new AppError(
        429,
        `${OVERLAP_MESSAGES.tooSoon}: the next run may start at ${next.toISOString()}`,
        {
          nextRunAt: next.toISOString(),
        },
      );
    }
    await consent(tx, caller.organizationId, partner.id);
    const [row] = await tx
      .insert(overlapRuns)
      .values({
        starterId: caller.organizationId,
        responderId: partner.id,
        starterPopulation: input.population,
        responderPopulation: input.partnerPopulation,
        pairKey: key,
        status: "waiting",
        startedByUserId: caller.userId,
        starterPoints: packPoints(input.points),
        createdAt: now,
        expiresAt: new Date(now.getTime() + OVERLAP_RUN_TTL_DAYS * 24 * HOUR_MS),
      })
      .returning();
    if (!row) throw new Error("The run was not stored");
    await queueNotice(tx, {
      type: "overlap_requested",
      organizationId: partner.id,
      partnerId: caller.organizationId,
      runId: row.id,
      population: input.partnerPopulation,
      partnerPopulation: input.population,
    });
    await recordSecurityEvent(tx, caller, {
      action: "overlap_run_started",
      organizationId: caller.organizationId,
      target: `${partner.name}: your ${label(input.population)} × their ${label(input.partnerPopulation)}`,
    });
    // The side asked keeps a trace too, even of a run it never answers.
    const starterName = (await organizationNames(tx, [caller.organizationId])).get(caller.organizationId);
    await recordSecurityEvent(tx, NOBODY, {
      action: "overlap_run_started",
      organizationId: partner.id,
      target: `${starterName ?? caller.organizationId} started: your ${label(input.partnerPopulation)} × their ${label(input.population)}`,
    });
    return toRun(row, caller.organizationId, new Map([[partner.id, partner.name]]), now);
  });
}

/**
 * A run of this organization (someone else's is not found, an expired one refused), locked when
 * the caller is about to take its step; a read of the work to do takes no lock.
 */
async function ownRun(
  tx: DbOrTx,
  organizationId: string,
  runId: string,
  now: Date,
  lock: "for step" | "read",
): Promise<RunRow> {
  const query = tx
    .select()
    .from(overlapRuns)
    .where(
      and(
        eq(overlapRuns.id, runId),
        or(eq(overlapRuns.starterId, organizationId), eq(overlapRuns.responderId, organizationId)),
      ),
    );
  const [row] = lock === "for step" ? await query.for("update") : await query;
  if (!row) throw notFound(OVERLAP_MESSAGES.runNotFound);
  // A pair no longer allowed (blocked, no longer Buddies) is not found, before anything else is said.
  await overlapPartner(
    tx,
    organizationId,
    row.starterId === organizationId ? row.responderId : row.starterId,
  );
  if (statusOf(row, now) !== row.status) throw conflict("This run expired");
  return row;
}

const CANCELLED = Symbol("cancelled");

/**
 * Ends a run that may not go on: nothing of it is kept. The transaction commits the cancellation,
 * and the caller then answers 409 (`refuseIfCancelled`).
 */
async function cancel(tx: DbOrTx, runId: string): Promise<typeof CANCELLED> {
  await cancelRuns(tx, eq(overlapRuns.id, runId));
  return CANCELLED;
}

function refuseIfCancelled(outcome: OverlapRun | typeof CANCELLED): OverlapRun {
  if (outcome === CANCELLED) throw conflict(OVERLAP_MESSAGES.hidden);
  return outcome;
}

/**
 * The level the current step uses: the lower of the one fixed at the answer and both sides' levels
 * now. `mayGoOn` is false once it is Hidden, or lower than the level an answer was kept at (an
 * answer kept in order for Overlaps would tell more than Counts allows).
 */
async function currentLevel(tx: DbOrTx, row: RunRow, organizationId: string) {
  const partnerId = row.starterId === organizationId ? row.responderId : row.starterId;
  const levels = await pairLevels(tx, organizationId, partnerId);
  const effective = row.level ? lowerLevel(row.level, levels.effective) : levels.effective;
  const mayGoOn = effective !== "hidden" && (row.level === null || effective === row.level);
  return { partnerId, levels, effective, mayGoOn, step: stepLevelOf(effective) };
}

const stepLevelOf = (level: OverlapLevel): StepLevel => (level === "overlaps" ? "overlaps" : "counts");

/** What this side's next step needs: the points to blind again, and how (CONTRACT §11). */
export async function runWork(db: DbOrTx, organizationId: string, runId: string): Promise<OverlapRunWork> {
  const now = new Date();
  const row = await ownRun(db, organizationId, runId, now, "read");
  const { partnerId, mayGoOn, step } = await currentLevel(db, row, organizationId);
  if (!mayGoOn && (row.status === "waiting" || row.status === "answered")) {
    await db.transaction((tx) => cancel(tx, row.id));
    throw conflict(OVERLAP_MESSAGES.hidden);
  }
  const names = await organizationNames(db, [partnerId]);
  const run = toRun(row, organizationId, names, now);
  const mine = row.starterId === organizationId;
  return {
    ...run,
    stepLevel: step,
    points: !mine && row.status === "waiting" ? unpackPoints(row.starterPoints) : null,
    doubled: mine && row.status === "answered" ? unpackPoints(row.responderDoubled) : null,
    partnerPoints: mine && row.status === "answered" ? unpackPoints(row.responderPoints) : null,
  };
}

export type AnswerRunInput = { doubled: string[]; points: string[]; level: StepLevel };
type StepLevel = "counts" | "overlaps";

/**
 * A step follows the level it was given (`stepLevel`). Taken for another, it is refused, to be taken
 * again: kept in order for Overlaps while the level is now Counts, it would tell more than Counts
 * allows; shuffled for Counts while it is now Overlaps, positions read from it would be wrong.
 */
function refuseStaleStep(followed: StepLevel, level: StepLevel) {
  if (followed !== level) throw conflict(OVERLAP_MESSAGES.levelChanged);
}

/** Step 2: B's `b·(a·H(x))` and `b·H(y)`; A's own points are no longer needed and go. */
export async function answerRun(
  db: Db,
  caller: OverlapCaller,
  runId: string,
  input: AnswerRunInput,
): Promise<OverlapRun> {
  const now = new Date();
  const outcome = await db.transaction(async (tx) => {
    const row = await ownRun(tx, caller.organizationId, runId, now, "for step");
    if (row.responderId !== caller.organizationId || row.status !== "waiting") {
      throw conflict(OVERLAP_MESSAGES.notYourTurn);
    }
    const { partnerId, mayGoOn, step } = await currentLevel(tx, row, caller.organizationId);
    if (!mayGoOn) return cancel(tx, row.id);
    if (!(await hasList(tx, caller.organizationId, row.responderPopulation))) return cancel(tx, row.id);
    if (input.doubled.length !== pointCount(row.starterPoints)) throw conflict(OVERLAP_MESSAGES.wrongLength);
    refuseStaleStep(input.level, step);
    await consent(tx, caller.organizationId, partnerId);
    const [updated] = await tx
      .update(overlapRuns)
      .set({
        status: "answered",
        level: step,
        starterPoints: null,
        responderDoubled: packPoints(input.doubled),
        responderPoints: packPoints(input.points),
        answeredAt: now,
      })
      .where(eq(overlapRuns.id, row.id))
      .returning();
    if (!updated) throw new Error("The run was not updated");
    const names = await organizationNames(tx, [partnerId]);
    await recordSecurityEvent(tx, caller, {
      action: "overlap_run_answered",
      organizationId: caller.organizationId,
      target: `${names.get(partnerId) ?? partnerId}: your ${label(row.responderPopulation)} × their ${label(row.starterPopulation)}`,
    });
    return toRun(updated, caller.organizationId, names, now);
  });
  return refuseIfCancelled(outcome);
}

/**
 * Step 3: A's `a·(b·H(y))`. The relay compares both doubly blinded lists, keeps the result (the
 * count, and each side's positions in Overlaps mode) and drops every point: the run keeps only
 * its result, and both sides read the same one.
 */
export async function completeRun(
  db: Db,
  caller: OverlapCaller,
  runId: string,
  input: { doubled: string[]; level: StepLevel },
): Promise<OverlapRun> {
  const now = new Date();
  const outcome = await db.transaction(async (tx) => {
    const row = await ownRun(tx, caller.organizationId, runId, now, "for step");
    if (row.starterId !== caller.organizationId || row.status !== "answered") {
      throw conflict(OVERLAP_MESSAGES.notYourTurn);
    }
    const { partnerId, mayGoOn, step: level } = await currentLevel(tx, row, caller.organizationId);
    if (!mayGoOn) return cancel(tx, row.id);
    if (input.doubled.length !== pointCount(row.responderPoints))
      throw conflict(OVERLAP_MESSAGES.wrongLength);
    refuseStaleStep(input.level, level);
    const result = runResult(unpackPoints(row.responderDoubled), input.doubled, level);
    const [updated] = await tx
      .update(overlapRuns)
      .set({
        status: "completed",
        level,
        overlapCount: result.count,
        starterMatches: result.starter,
        responderMatches: result.responder,
        starterPoints: null,
        responderDoubled: null,
        responderPoints: null,
        completedAt: now,
      })
      .where(eq(overlapRuns.id, row.id))
      .returning();
    if (!updated) throw new Error("The run was not updated");
    await queueOverlapCompleted(tx, updated);
    await logBothSides(tx, [updated], "overlap_run_completed");
    return toRun(updated, caller.organizationId, await organizationNames(tx, [partnerId]), now);
  });
  return refuseIfCancelled(outcome);
}

/** This organization's runs, newest first (both roles). */
export async function listRuns(
  db: DbOrTx,
  organizationId: string,
  options: { partnerId?: string; limit?: number } = {},
) {
  const now = new Date();
  const own = or(eq(overlapRuns.starterId, organizationId), eq(overlapRuns.responderId, organizationId));
  // A partner that blocks this organization, or that it blocks, is hidden here too (CONTRACT §4).
  const notBlocked = sql`${runPartner(organizationId)} not in (${blockedOrganizationsSql(organizationId)})`;
  const withPartner = options.partnerId
    ? or(eq(overlapRuns.starterId, options.partnerId), eq(overlapRuns.responderId, options.partnerId))
    : undefined;
  const rows = await db
    .select()
    .from(overlapRuns)
    .where(and(own, withPartner, notBlocked))
    .orderBy(desc(overlapRuns.createdAt))
    .limit(options.limit ?? 100);
  const names = await organizationNames(
    db,
    rows.map((row) => (row.starterId === organizationId ? row.responderId : row.starterId)),
  );
  return rows.map((row) => toRun(row, organizationId, names, now));
}

/** Runs in flight whose next step is this organization's: to answer, or to complete. */
export async function runsAwaiting(db: DbOrTx, organizationId: string): Promise<OverlapRun[]> {
  const now = new Date();
  const rows = await db
    .select()
    .from(overlapRuns)
    .where(
      and(
        inArray(overlapRuns.status, [...IN_FLIGHT]),
        gt(overlapRuns.expiresAt, now),
        or(
          and(eq(overlapRuns.responderId, organizationId), eq(overlapRuns.status, "waiting")),
          and(eq(overlapRuns.starterId, organizationId), eq(overlapRuns.status, "answered")),
        ),
        sql`${runPartner(organizationId)} not in (${blockedOrganizationsSql(organizationId)})`,
      ),
    )
    .orderBy(overlapRuns.createdAt)
    .limit(100);
  const names = await organizationNames(
    db,
    rows.map((row) => (row.starterId === organizationId ? row.responderId : row.starterId)),
  );
  return rows.map((row) => toRun(row, organizationId, names, now));
}

/**
 * CONTRACT §11: runs expire after 7 days; their points go with them (the hourly sweep). Runs of a
 * pair that blocked each other since are cancelled: their steps already answered 404.
 */
export async function expireOverlapRuns(db: DbOrTx, now = new Date()): Promise<number> {
  const rows = await db
    .update(overlapRuns)
    .set({ status: "expired", starterPoints: null, responderDoubled: null, responderPoints: null })
    .where(and(inArray(overlapRuns.status, [...IN_FLIGHT]), sql`${overlapRuns.expiresAt} <= ${now}`))
    .returning({ id: overlapRuns.id });
  // Not logged: a block is hidden from the side blocked (CONTRACT §4), and the runs are out of sight.
  const blocked = await cancelRuns(
    db,
    sql`${overlapRuns.responderId} in (${blockedOrganizationsSql(overlapRuns.starterId)})`,
    { log: false },
  );
  return rows.length + blocked;
}
