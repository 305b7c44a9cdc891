import { randomUUID } from "node:crypto";
import type { ConversionType } from "@shared/tracking";
import { and, eq } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Db } from "../../../db/client";
import { conversions } from "../../../db/schema";
import { notFound } from "../../../errors";
import { type CommittedBatch, createGroupCommit, type Refusal } from "../../../lib/group-commit";
import type { ClickIdClaims, ClickIds } from "../clicks/click-id";
import { type StoredConversion, storeConversions } from "./conversion-store";

export type ConversionResult = { id: string; duplicate: boolean };

export type ConversionInput = {
  /** The organization recording it: it must be the one that received the click (else 404). */
  organizationId: string;
  clickId: string;
  type: ConversionType;
  value?: number;
  metadata?: Record<string, unknown>;
  now?: Date;
};

/** The conversion's row, as a server call and a pixel write it. */
function conversionRow(click: ClickIdClaims, input: ConversionInput, now: Date): StoredConversion {
  return {
    id: randomUUID(),
    click_id: input.clickId,
    type: input.type,
    value: input.value ?? null,
    metadata: input.metadata ?? null,
    source_org_id: click.sourceOrgId,
    target_org_id: input.organizationId,
    created_at: now.toISOString(),
  };
}

/**
 * Records a lead for a proven click and answers whether it is new: stored as a pixel's batch is
 * (conversion-store.ts), so the unique index decides and two requests at the same moment still
 * make one lead.
 */
export async function recordConversion(
  db: Db,
  click: ClickIdClaims,
  input: ConversionInput & { now: Date },
): Promise<ConversionResult> {
  const row = conversionRow(click, input, input.now);
  return db.transaction(async (tx) => {
    if (await storeConversions(tx, [row])) return { id: row.id, duplicate: false };
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
 * The click is proven by its id (click-id.ts): no read of its row, which another instance may be
 * committing at this moment. The server-to-server call is stored in a transaction of its own, as
 * it says whether the lead is new; pixels are stored by group commit and answered once committed,
 * the unique index deciding what is new. Pixels fire again on every reload of a thank-you page,
 * and servers retry: what was recorded is remembered for an hour and answered from memory, keyed
 * by organization so another never hits it.
 */
export function createConversionRecorder(deps: {
  db: Db;
  clickIds: ClickIds;
  /** Charges a client address for a new lead by pixel, or refuses it (429); none when off. */
  limitPixel?: ((client: string) => Promise<void>) | null;
  onCommit?: (batch: CommittedBatch) => void;
  onRefusal?: (refusal: Refusal) => void;
}) {
  const known = new LRUCache<string, ConversionResult>({ max: 100_000, ttl: 60 * 60_000 });
  const pixelSeen = new LRUCache<string, true>({ max: 100_000, ttl: 60 * 60_000 });
  const pixels = createGroupCommit<StoredConversion>({
    write: (rows) => storeConversions(deps.db, rows),
    onCommit: deps.onCommit,
    onRefusal: deps.onRefusal,
  });
  const keyOf = (input: ConversionInput) => `${input.organizationId}|${input.clickId}|${input.type}`;
  function prove(input: ConversionInput, now: Date): ClickIdClaims {
    const claims = deps.clickIds.read(input.clickId, input.organizationId, now.getTime());
    // Unknown, altered, expired, or another organization's click: all the same answer.
    if (!claims) throw notFound("Click id not found");
    return claims;
  }

  return {
    async record(input: ConversionInput): Promise<ConversionResult> {
      const key = keyOf(input);
      const hit = known.get(key);
      if (hit) return { id: hit.id, duplicate: true };
      const now = input.now ?? new Date();
      const claims = prove(input, now);
      const result = await recordConversion(deps.db, claims, { ...input, now });
      known.set(key, result);
      return result;
    },

    /**
     * `client` is the request's address. The pixel needs no key, so only what would record a new
     * lead is charged to it: a repeat or an unproven id stores nothing and costs no allowance.
     */
    async recordPixel(input: ConversionInput, client: string): Promise<void> {
      const key = keyOf(input);
      if (known.has(key) || pixelSeen.has(key)) return;
      const now = input.now ?? new Date();
      const claims = prove(input, now);
      if (deps.limitPixel) await deps.limitPixel(client);
      await pixels.add(conversionRow(claims, input, now));
      pixelSeen.set(key, true);
    },

    /** Waits for the pixels being committed (their requests are still waiting); run on close. */
    close: () => pixels.drain(),
  };
}

export type ConversionRecorder = ReturnType<typeof createConversionRecorder>;
