import { type ConversionChannel, CUSTOMER_ATTRIBUTION_DAYS } from "@shared/tracking";
import { sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../../db/client";
import type { Written } from "../../../lib/group-commit";
import { firstConversionNotices } from "../../notifications/event-notices";
import { conversionCreatedMessages } from "../../webhooks/webhook-events";

/**
 * A conversion on its way in. `click_id` and `source_org_id` are null when only a customer was
 * named: the statement finds the click that customer is bound to.
 */
export type IncomingConversion = {
  id: string;
  click_id: string | null;
  customer_id: string | null;
  type: string;
  value_minor: number | null;
  currency: string | null;
  event_id: string | null;
  metadata: Record<string, unknown> | null;
  /** Who binds its customer to its click: the organization's key or its Stripe; null without a customer. */
  binds_by: "key" | "stripe" | null;
  /** How it was recorded: the pixel, the organization's key or its Stripe. */
  channel: ConversionChannel;
  /** The Stripe payment intent it was paid with, so its refunds and disputes find it; else null. */
  payment_intent_id: string | null;
  source_org_id: string | null;
  target_org_id: string;
  created_at: string;
};

/**
 * stored: a new conversion under `id`; duplicate: the one it repeats (same event id, or the lead
 * of its click and type when it has none), `id` being that one's, or null when it was committed
 * by another transaction during this statement (conversions.service.ts asks again);
 * unknown_customer: no click is bound to that customer within the window.
 */
export type StoreOutcome =
  | { outcome: "stored"; id: string }
  | { outcome: "duplicate"; id: string | null }
  | { outcome: "unknown_customer"; id: null };

/**
 * Stores a batch of conversions in one statement, with everything that follows from them:
 *
 * - a customer sent with a click is bound to it (the first binding wins, except that a binding a
 *   Stripe event made yields to one the organization's key sends: `bound_by`), and a
 *   conversion that names only a customer is attributed to its bound click for
 *   CUSTOMER_ATTRIBUTION_DAYS;
 * - the first conversion of a (click, type) is its lead (`conversions_one_lead`); a later one
 *   without an event id is a duplicate of it, a later one with a new event id is stored beside it
 *   and carries revenue only; a repeated event id is a duplicate (`conversions_event_id`);
 * - the day's leads per partner pair and revenue per pair and currency are added to the roll-ups
 *   by the table's trigger at the statement's end (migration 0019, which alone orders their locks);
 * - each new conversion's `conversion.created` webhook messages are queued (CONTRACT §9), so they
 *   commit with it or not at all;
 * - an organization's first lead and first revenue from each partner are claimed once for good and
 *   mailed to its people (notifications/event-notices.ts), with it or not at all.
 *
 * The unique indexes alone decide what is new: a repeat in the batch, already stored, or being
 * committed by another instance at this moment is skipped and not counted. The second insert
 * reads the first one's output in full before it writes anything, so its index checks see every
 * lead this statement made.
 */
export async function storeConversions(
  db: DbOrTx,
  rows: readonly IncomingConversion[],
): Promise<Written<StoreOutcome>> {
  if (rows.length === 0) return { stored: 0, results: [] };
  const json = JSON.stringify(rows.map((row, ord) => ({ ...row, ord })));
  const window = `${CUSTOMER_ATTRIBUTION_DAYS} days`;
  const result = await db.execute<{ ord: number; outcome: StoreOutcome["outcome"]; id: string | null }>(sql`
    with input as (
      select * from json_to_recordset(${json}::json) as x(
        ord int, id text, click_id text, customer_id text, type text, value_minor bigint, currency text,
        event_id text, metadata jsonb, binds_by text, channel text, payment_intent_id text, source_org_id text,
        target_org_id text, created_at timestamptz)
    ), bound as (
      insert into customer_bindings (organization_id, customer_id, click_id, source_org_id, bound_at, bound_by)
      select distinct on (target_org_id, customer_id) target_org_id, customer_id, click_id, source_org_id, created_at,
        binds_by
      from input
      where click_id is not null and customer_id is not null
      -- A key's binding before Stripe's in one batch, then the first sent.
      order by target_org_id, customer_id, binds_by = 'key' desc, ord
      on conflict (organization_id, customer_id) do update
        set click_id = excluded.click_id, source_org_id = excluded.source_org_id, bound_at = excluded.bound_at,
          bound_by = excluded.bound_by
        where customer_bindings.click_id <> excluded.click_id
          and customer_bindings.bound_by = 'stripe' and excluded.bound_by = 'key'
      returning organization_id, customer_id, click_id, source_org_id, bound_at
    ), bindings as (
      select * from bound
      union all
      select b.organization_id, b.customer_id, b.click_id, b.source_org_id, b.bound_at
      from customer_bindings b
      where (b.organization_id, b.customer_id) in (
        select target_org_id, customer_id from input where click_id is null
      )
      -- Not as it was before this statement bound it again.
      and not exists (
        select 1 from bound x where x.organization_id = b.organization_id and x.customer_id = b.customer_id
      )
    ), resolved as (
      select i.ord, i.id, coalesce(i.click_id, b.click_id) as click_id, i.customer_id, i.type, i.value_minor,
        i.currency, i.event_id, i.metadata, i.channel, i.payment_intent_id,
        coalesce(i.source_org_id, b.source_org_id) as source_org_id, i.target_org_id, i.created_at
      from input i
      left join bindings b
        on i.click_id is null and b.organization_id = i.target_org_id and b.customer_id = i.customer_id
        and b.bound_at > i.created_at - ${window}::interval
      where i.click_id is not null or b.click_id is not null
    ), leads as (
      insert into conversions (id, click_id, type, value_minor, currency, customer_id, event_id, is_lead,
        metadata, channel, payment_intent_id, source_org_id, target_org_id, created_at)
      select id, click_id, type, value_minor, currency, customer_id, event_id, true,
        metadata, channel, payment_intent_id, source_org_id, target_org_id, created_at
      from resolved
      -- Concurrent batches of the same lead wait for each other in one order. Batches whose leads
      -- share event ids can still deadlock across the two unique indexes: the victim runs again.
      order by click_id, type, ord
      on conflict do nothing
      returning id, click_id, type, customer_id, event_id, is_lead, value_minor, currency, source_org_id, target_org_id, created_at
    ), extras as (
      insert into conversions (id, click_id, type, value_minor, currency, customer_id, event_id, is_lead,
        metadata, channel, payment_intent_id, source_org_id, target_org_id, created_at)
      select r.id, r.click_id, r.type, r.value_minor, r.currency, r.customer_id, r.event_id, false,
        r.metadata, r.channel, r.payment_intent_id, r.source_org_id, r.target_org_id, r.created_at
      from resolved r
      where r.event_id is not null and not exists (select 1 from leads l where l.id = r.id)
      order by r.target_org_id, r.event_id, r.ord
      on conflict do nothing
      returning id, click_id, type, customer_id, event_id, is_lead, value_minor, currency, source_org_id, target_org_id, created_at
    ), stored as (
      select * from leads union all select * from extras
    ), messages as (${conversionCreatedMessages(sql`stored`)}
    ), ${firstConversionNotices(sql`stored`)}
    select i.ord,
      case when r.ord is null then 'unknown_customer' when s.id is not null then 'stored' else 'duplicate' end as outcome,
      case when r.ord is null then null else coalesce(
        s.id,
        (select x.id from stored x
          where r.event_id is not null and x.target_org_id = r.target_org_id and x.event_id = r.event_id limit 1),
        (select c.id from conversions c
          where r.event_id is not null and c.target_org_id = r.target_org_id and c.event_id = r.event_id),
        (select x.id from stored x
          where r.event_id is null and x.click_id = r.click_id and x.type = r.type and x.is_lead limit 1),
        (select c.id from conversions c
          where r.event_id is null and c.click_id = r.click_id and c.type = r.type and c.is_lead)
      ) end as id
    from input i
    left join resolved r on r.ord = i.ord
    left join stored s on s.id = i.id
    order by i.ord`);
  const results = rowsOf<{ ord: number; outcome: StoreOutcome["outcome"]; id: string | null }>(result).map(
    ({ outcome, id }) => ({ outcome, id }) as StoreOutcome,
  );
  return { stored: results.filter((result) => result.outcome === "stored").length, results };
}
