import { randomUUID } from "node:crypto";
import { DEFAULT_CURRENCY, isCurrency, toMinorUnits } from "@shared/money";
import type { ConversionChannel, ConversionType } from "@shared/tracking";
import { LRUCache } from "lru-cache";
import type { Db } from "../../../db/client";
import { retryingRollbacks } from "../../../db/concurrency-rollback";
import { badRequest, notFound } from "../../../errors";
import { type CommittedBatch, createGroupCommit, type Refusal } from "../../../lib/group-commit";
import type { ClickIdClaims, ClickIds } from "../clicks/click-id";
import { type IncomingConversion, type StoreOutcome, storeConversions } from "./conversion-store";

export type ConversionResult = { id: string; duplicate: boolean };

export type ConversionInput = {
  /** The organization recording it: it must be the one that received the click (else 404). */
  organizationId: string;
  /** At least one of the click id and the customer id (the route's schema checks it). */
  clickId?: string;
  customerId?: string;
  type: ConversionType;
  /** Major units: a JSON number from the server call, the query's text from the pixel. */
  value?: number | string;
  /** Minor units, as payment systems send them (Stripe's `4999` for 49.99 USD); instead of `value`. */
  valueMinor?: number;
  currency?: string;
  eventId?: string;
  metadata?: Record<string, unknown>;
  /**
   * Who sent it, for its customer binding (CONTRACT §8): the organization's key ("key", the
   * default) or its Stripe ("stripe"). The first binding wins, except that a binding Stripe made
   * yields to one the key sends. The keyless pixel never binds (`recordPixel`).
   */
  channel?: "key" | "stripe";
  /** The Stripe payment intent it was paid with (`pi_…`), kept so its refunds and disputes find it. */
  paymentIntentId?: string;
  now?: Date;
};

/** The pixel's input: a lead of a click, nothing more (CONTRACT §5: no money, event id or customer). */
export type PixelInput = Pick<ConversionInput, "organizationId" | "type" | "now"> & { clickId: string };

export const UNKNOWN_CUSTOMER_MESSAGE =
  "Customer not found: send the customer's first conversion with the clickId that brought them";

/** The conversion's row: money in minor units, and the click's partner when a click id was sent. */
function conversionRow(
  click: ClickIdClaims | null,
  input: ConversionInput,
  channel: ConversionChannel,
  now: Date,
): IncomingConversion {
  let valueMinor: number | null = null;
  let currency: string | null = null;
  if (input.valueMinor !== undefined) {
    currency = (input.currency ?? DEFAULT_CURRENCY).toUpperCase();
    if (!isCurrency(currency) || !Number.isSafeInteger(input.valueMinor) || input.valueMinor < 0)
      throw badRequest(`Invalid value or currency (${input.valueMinor} ${currency})`);
    valueMinor = input.valueMinor;
  } else if (input.value !== undefined) {
    currency = (input.currency ?? DEFAULT_CURRENCY).toUpperCase();
    const money = toMinorUnits(input.value, currency);
    // The routes' schemas refuse these first; this keeps any other caller to the same rule.
    if ("problem" in money) throw badRequest(`Invalid value or currency (${money.problem})`);
    valueMinor = money.minor;
  }
  return {
    id: randomUUID(),
    click_id: input.clickId ?? null,
    customer_id: input.customerId ?? null,
    type: input.type,
    value_minor: valueMinor,
    currency,
    event_id: input.eventId ?? null,
    metadata: input.metadata ?? null,
    binds_by: input.customerId === undefined ? null : (input.channel ?? "key"),
    channel,
    payment_intent_id: input.paymentIntentId ?? null,
    source_org_id: click?.sourceOrgId ?? null,
    target_org_id: input.organizationId,
    created_at: now.toISOString(),
  };
}

/**
 * Server calls and pixels go through one group commit: the conversions of one turn of the event
 * loop are stored by one statement (conversion-store.ts), each request answered with its own
 * outcome once it has committed, and the unique indexes decide what is new. A click is proven by
 * its id (click-id.ts), with no read of its row; a customer by the binding the statement finds.
 * Pixels fire again on every reload of a thank-you page, and servers retry: what was recorded is
 * remembered for an hour and answered from memory, keyed by organization so another never hits it.
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
  const batches = createGroupCommit<IncomingConversion, StoreOutcome>({
    // Two batches (or a batch and a webhook's transaction) sharing event ids may deadlock; the
    // victim's statement wrote nothing and runs again.
    write: (rows) => retryingRollbacks(() => storeConversions(deps.db, rows)),
    onCommit: deps.onCommit,
    onRefusal: deps.onRefusal,
  });
  /**
   * The memory's key: the statement's rule of what a repeat repeats (its event id, else the lead
   * of its click, or its customer's click, and type), so a hit answers what the statement would.
   */
  const keyOf = (input: ConversionInput) =>
    input.eventId !== undefined
      ? `${input.organizationId}|event|${input.eventId}`
      : input.clickId !== undefined
        ? `${input.organizationId}|click|${input.clickId}|${input.type}`
        : `${input.organizationId}|customer|${input.customerId}|${input.type}`;
  function prove(clickId: string, organizationId: string, now: Date): ClickIdClaims {
    const claims = deps.clickIds.read(clickId, organizationId, now.getTime());
    // Unknown, altered, expired, or another organization's click: all the same answer.
    if (!claims) throw notFound("Click id not found");
    return claims;
  }

  async function store(
    input: ConversionInput,
    channel: ConversionChannel,
    now: Date,
  ): Promise<ConversionResult> {
    const claims = input.clickId === undefined ? null : prove(input.clickId, input.organizationId, now);
    const row = conversionRow(claims, input, channel, now);
    let outcome = await batches.add(row);
    // The statement alone says which conversion a row repeats. One committed by another
    // transaction while it ran was past its snapshot: asked again, it sees that one.
    if (outcome?.outcome === "duplicate" && outcome.id === null) outcome = await batches.add(row);
    if (!outcome) throw new Error("the conversion store answered no outcome");
    if (outcome.outcome === "unknown_customer") throw notFound(UNKNOWN_CUSTOMER_MESSAGE);
    if (outcome.outcome === "stored") return { id: outcome.id, duplicate: false };
    if (outcome.id === null) throw new Error("the conversion a duplicate repeats was not found");
    return { id: outcome.id, duplicate: true };
  }

  return {
    async record(input: ConversionInput): Promise<ConversionResult> {
      const key = keyOf(input);
      // A repeat that names a customer still goes to the statement, which binds it to its click
      // (the first binding wins): a lead the pixel recorded first must not keep the key's
      // customer from its click.
      const hit = input.customerId === undefined ? known.get(key) : undefined;
      if (hit) return { id: hit.id, duplicate: true };
      const result = await store(input, input.channel ?? "key", input.now ?? new Date());
      known.set(key, result);
      return result;
    },

    /**
     * `client` is the request's address. The pixel needs no key, so only what would record a new
     * lead is charged to it: a repeat or an unproven id stores nothing and costs no allowance.
     * It records a bare lead: whatever else an input object holds is not read.
     */
    async recordPixel(pixel: PixelInput, client: string): Promise<void> {
      const input: ConversionInput & { clickId: string } = {
        organizationId: pixel.organizationId,
        clickId: pixel.clickId,
        type: pixel.type,
        now: pixel.now,
      };
      const key = keyOf(input);
      if (known.has(key)) return;
      const now = input.now ?? new Date();
      prove(input.clickId, input.organizationId, now);
      if (deps.limitPixel) await deps.limitPixel(client);
      const result = await store(input, "pixel", now);
      known.set(key, result);
    },

    /** Waits for the conversions being committed (their requests are still waiting); run on close. */
    close: () => batches.drain(),
  };
}

export type ConversionRecorder = ReturnType<typeof createConversionRecorder>;
