import { randomUUID } from "node:crypto";
import { formatMinorUnits, moneyMessage, toMajorUnits, toMinorUnits } from "@shared/money";
import { REFUND_MESSAGES, type RefundResult } from "@shared/refunds";
import type { RefundKind } from "@shared/tracking";
import { type SQL, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/client";
import { rowsOf } from "../../../db/client";
import { retryingRollbacks } from "../../../db/concurrency-rollback";
import { badRequest, notFound } from "../../../errors";
import { queueConversionRefunded } from "../../webhooks/webhook-events";

/** Which conversion of the organization a refund is for. */
export type RefundTarget = { conversionId: string } | { eventId: string } | { paymentIntentId: string };

/**
 * How much it takes back, decided under the conversion's lock from what remains
 * (`value_minor − refunded_minor`):
 * - `remaining`: all that remains (the API without `value`; 400 when nothing does);
 * - `major`: the API's `value`, in major units of the conversion's currency (400 above what remains);
 * - `refundedUpTo`: Stripe's `amount_refunded` of the charge, its running total: what it adds to
 *   the Stripe refunds recorded for the conversion, clamped to what remains;
 * - `minor`: Stripe's disputed amount, clamped to what remains;
 * - `givesBack`: a won dispute returns what the refund recorded as `refundId` took (negative),
 *   at most what was taken back in all.
 */
export type RefundAmount =
  | { remaining: true }
  | { major: number }
  | { refundedUpTo: number; currency: string }
  | { minor: number; currency: string }
  | { givesBack: string };

export type RefundInput = {
  organizationId: string;
  target: RefundTarget;
  refundId: string;
  kind: RefundKind;
  amount: RefundAmount;
  channel: "key" | "stripe";
  now?: Date;
};

export type RefundOutcome =
  | { outcome: "recorded" | "duplicate"; refund: RefundResult; clampedFrom?: number }
  /** Stripe only: nothing more to take back (or give back); the reason is logged. */
  | { outcome: "nothing"; reason: string };

type ConversionRow = {
  id: string;
  value_minor: string | null;
  refunded_minor: string;
  currency: string | null;
  source_org_id: string;
  target_org_id: string;
};

type RefundRow = { id: string; conversion_id: string; value_minor: string; currency: string };

function answer(row: RefundRow, duplicate: boolean): RefundResult {
  return {
    id: row.id,
    conversionId: row.conversion_id,
    value: toMajorUnits(Number(row.value_minor), row.currency),
    currency: row.currency,
    duplicate,
  };
}

function targetCondition(target: RefundTarget): SQL {
  if ("conversionId" in target) return sql`id = ${target.conversionId}`;
  if ("eventId" in target) return sql`event_id = ${target.eventId}`;
  return sql`payment_intent_id = ${target.paymentIntentId}`;
}

async function readRefund(
  tx: DbOrTx,
  organizationId: string,
  refundId: string,
): Promise<RefundRow | undefined> {
  const result = await tx.execute(sql`
    select id, conversion_id, value_minor::text as value_minor, currency from refunds
    where organization_id = ${organizationId} and refund_id = ${refundId}`);
  return rowsOf<RefundRow>(result)[0];
}

type Decided = { minor: number; clampedFrom?: number } | { nothing: string };

/** The signed minor units the refund records (positive: taken back), from the locked conversion. */
async function decideAmount(
  tx: DbOrTx,
  input: RefundInput,
  conversion: ConversionRow & { value_minor: string; currency: string },
): Promise<Decided> {
  const { amount } = input;
  const value = Number(conversion.value_minor);
  const refunded = Number(conversion.refunded_minor);
  const remaining = value - refunded;
  const currency = conversion.currency;
  if ("remaining" in amount) {
    if (remaining <= 0) throw badRequest(REFUND_MESSAGES.nothingLeft);
    return { minor: remaining };
  }
  if ("major" in amount) {
    const money = toMinorUnits(amount.major, currency);
    if ("problem" in money) throw badRequest(moneyMessage(money.problem, currency));
    if (money.minor <= 0) throw badRequest(REFUND_MESSAGES.positive);
    if (money.minor > remaining)
      throw badRequest(REFUND_MESSAGES.tooMuch(formatMinorUnits(Math.max(remaining, 0), currency), currency));
    return { minor: money.minor };
  }
  if ("givesBack" in amount) {
    const taken = await readRefund(tx, input.organizationId, amount.givesBack);
    if (!taken || taken.conversion_id !== conversion.id || Number(taken.value_minor) <= 0)
      return { nothing: `no recorded ${amount.givesBack} to give back` };
    const back = Math.min(Number(taken.value_minor), refunded);
    if (back <= 0) return { nothing: "nothing taken back to give back" };
    return { minor: -back };
  }
  if (amount.currency !== currency)
    return { nothing: `the payment's currency ${amount.currency} is not the conversion's ${currency}` };
  let wanted: number;
  if ("refundedUpTo" in amount) {
    // Stripe's running total less what its earlier refunds of this payment took: redelivered or
    // late events (an older, smaller total) add nothing.
    const result = await tx.execute(sql`
      select coalesce(sum(value_minor), 0)::text as taken from refunds
      where conversion_id = ${conversion.id} and kind = 'refund' and channel = 'stripe'`);
    const taken = Number(rowsOf<{ taken: string }>(result)[0]?.taken ?? 0);
    wanted = amount.refundedUpTo - taken;
    if (wanted <= 0) return { nothing: "its refunds are recorded already" };
  } else {
    wanted = amount.minor;
    if (wanted <= 0) return { nothing: "no amount" };
  }
  if (remaining <= 0) return { nothing: "the conversion is refunded in full already" };
  return wanted > remaining ? { minor: remaining, clampedFrom: wanted } : { minor: wanted };
}

/**
 * CONTRACT §8: takes back all or part of a conversion the organization received (or, for a won
 * dispute, gives it back), in one transaction that
 *
 * 1. locks the conversion's row (`for update`), so concurrent refunds of one conversion are taken
 *    one after the other and never more than its value;
 * 2. answers the first refund of a repeated `refundId`, unchanged (`duplicate`);
 * 3. inserts the refund (the unique `(organization_id, refund_id)` decides a race of one refundId
 *    over two conversions), adds it to `conversions.refunded_minor`;
 * 4. takes it from the revenue of the refund's UTC day through `pair_daily_revenue_add` (negative
 *    value, no conversion: the day's net revenue, the periods following by their triggers), so
 *    every figure read from the roll-ups is net; the conversion's own day keeps its gross revenue;
 * 5. queues `conversion.refunded` for both organizations, committed with it or not at all.
 *
 * Another organization's conversion and an unknown one are both 404.
 */
export async function recordRefund(db: Db, input: RefundInput): Promise<RefundOutcome> {
  const now = (input.now ?? new Date()).toISOString();
  return retryingRollbacks(() =>
    db.transaction(async (tx): Promise<RefundOutcome> => {
      const found = await tx.execute(sql`
        select id, value_minor::text as value_minor, refunded_minor::text as refunded_minor, currency,
          source_org_id, target_org_id
        from conversions
        where target_org_id = ${input.organizationId} and ${targetCondition(input.target)}
        order by created_at, id
        limit 1
        for update`);
      const conversion = rowsOf<ConversionRow>(found)[0];
      const existing = await readRefund(tx, input.organizationId, input.refundId);
      if (existing) return { outcome: "duplicate", refund: answer(existing, true) };
      if (!conversion) throw notFound(REFUND_MESSAGES.notFound);
      if (conversion.value_minor === null || conversion.currency === null)
        throw badRequest(REFUND_MESSAGES.noValue);
      const decided = await decideAmount(tx, input, {
        ...conversion,
        value_minor: conversion.value_minor,
        currency: conversion.currency,
      });
      if ("nothing" in decided) return { outcome: "nothing", reason: decided.nothing };
      const inserted = await tx.execute(sql`
        insert into refunds (id, organization_id, conversion_id, refund_id, kind, value_minor, currency, channel,
          source_org_id, target_org_id, created_at)
        values (${randomUUID()}, ${input.organizationId}, ${conversion.id}, ${input.refundId}, ${input.kind},
          ${decided.minor}, ${conversion.currency}, ${input.channel}, ${conversion.source_org_id},
          ${conversion.target_org_id}, ${now}::timestamptz)
        on conflict (organization_id, refund_id) do nothing
        returning id, conversion_id, value_minor::text as value_minor, currency`);
      const refund = rowsOf<RefundRow>(inserted)[0];
      if (!refund) {
        // The same refundId, committed meanwhile by a refund of another conversion: nothing written here.
        const first = await readRefund(tx, input.organizationId, input.refundId);
        if (!first) throw new Error("a refund id in conflict was not found");
        return { outcome: "duplicate", refund: answer(first, true) };
      }
      await tx.execute(sql`
        update conversions set refunded_minor = refunded_minor + ${decided.minor} where id = ${conversion.id}`);
      await tx.execute(sql`
        select pair_daily_revenue_add(array[row((${now}::timestamptz at time zone 'UTC')::date,
          ${conversion.source_org_id}::text, ${conversion.target_org_id}::text, ${conversion.currency}::text,
          ${-decided.minor}::bigint, 0)]::pair_daily_revenue[])`);
      await queueConversionRefunded(tx, {
        id: refund.id,
        sourceOrgId: conversion.source_org_id,
        targetOrgId: conversion.target_org_id,
      });
      return { outcome: "recorded", refund: answer(refund, false), clampedFrom: decided.clampedFrom };
    }),
  );
}
