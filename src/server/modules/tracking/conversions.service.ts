import { CLICK_ID_TTL_MS, type ConversionType } from "@shared/tracking";
import { and, eq, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Db } from "../../db/client";
import { clickEvents, conversions, pairDailyStats } from "../../db/schema";
import { AppError, notFound } from "../../errors";

export type ConversionResult = { id: string; duplicate: boolean };

/**
 * Records a lead for a click. Only the organization that received the click may (else 404, as
 * for an unknown or expired click). One conversion per click and type: the unique index decides,
 * so two requests at the same moment still make one lead.
 */
export async function recordConversion(
  db: Db,
  input: {
    organizationId: string;
    clickId: string;
    type: ConversionType;
    value?: number;
    metadata?: Record<string, unknown>;
    now?: Date;
  },
): Promise<ConversionResult> {
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const [click] = await tx
      .select({
        sourceOrgId: clickEvents.sourceOrgId,
        targetOrgId: clickEvents.targetOrgId,
        occurredAt: clickEvents.occurredAt,
      })
      .from(clickEvents)
      .where(eq(clickEvents.id, input.clickId))
      .limit(1);
    if (
      !click ||
      click.targetOrgId !== input.organizationId ||
      now.getTime() - click.occurredAt.getTime() > CLICK_ID_TTL_MS
    ) {
      throw notFound("Click id not found");
    }
    const [created] = await tx
      .insert(conversions)
      .values({
        clickId: input.clickId,
        type: input.type,
        value: input.value ?? null,
        metadata: input.metadata ?? null,
        sourceOrgId: click.sourceOrgId,
        targetOrgId: click.targetOrgId,
        createdAt: now,
      })
      .onConflictDoNothing({ target: [conversions.clickId, conversions.type] })
      .returning({ id: conversions.id });
    if (created) {
      await tx
        .insert(pairDailyStats)
        .values({
          day: now.toISOString().slice(0, 10),
          sourceOrgId: click.sourceOrgId,
          targetOrgId: click.targetOrgId,
          leads: 1,
        })
        .onConflictDoUpdate({
          target: [pairDailyStats.day, pairDailyStats.sourceOrgId, pairDailyStats.targetOrgId],
          set: { leads: sql`${pairDailyStats.leads} + 1` },
        });
      return { id: created.id, duplicate: false };
    }
    const [existing] = await tx
      .select({ id: conversions.id })
      .from(conversions)
      .where(and(eq(conversions.clickId, input.clickId), eq(conversions.type, input.type)))
      .limit(1);
    if (!existing) throw new Error("conversion vanished");
    return { id: existing.id, duplicate: true };
  });
}

/**
 * Pixels fire again on every reload of a thank-you page. Conversions already recorded are
 * remembered for an hour, so a repeat answers `duplicate` from memory; the unique index stays the
 * only judge of what is new. Keyed by organization, so another organization never hits it.
 */
/** Whether a click missed by a lookup may be in the database now (see tracking.service.ts). */
export type ClickLookup = { mark(): number; storedSince(mark: number): Promise<boolean> };

export function createConversionRecorder(db: Db, clicks: ClickLookup) {
  const known = new LRUCache<string, ConversionResult>({ max: 100_000, ttl: 60 * 60_000 });
  return async (input: Parameters<typeof recordConversion>[1]): Promise<ConversionResult> => {
    const key = `${input.organizationId}|${input.clickId}|${input.type}`;
    const hit = known.get(key);
    if (hit) return { id: hit.id, duplicate: true };
    const mark = clicks.mark();
    let result: ConversionResult;
    try {
      result = await recordConversion(db, input);
    } catch (error) {
      // The reader may convert a moment after the click, before its batch reached the database.
      if (!(error instanceof AppError && error.statusCode === 404) || !(await clicks.storedSince(mark)))
        throw error;
      result = await recordConversion(db, input);
    }
    known.set(key, result);
    return result;
  };
}
