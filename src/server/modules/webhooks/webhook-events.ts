import { WEBHOOK_TEST_EVENT, type WebhookEvent } from "@shared/webhooks";
import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client";

/**
 * The messages of CONTRACT §9 as the outbox keeps them: one job per (event, endpoint), whose id
 * is the message's `webhook-id`, holding the endpoint and the payload as it was when the event
 * happened. Each is written by the statement or transaction that records its event.
 */
export type WebhookJobPayload = {
  endpointId: string;
  /** Sent even to a disabled endpoint: an admin checking it before enabling it again. */
  test?: boolean;
  message: {
    type: WebhookEvent | typeof WEBHOOK_TEST_EVENT;
    timestamp: string;
    data: Record<string, unknown>;
  };
};

/** A message id: Standard Webhooks asks only that it be unique; `msg_` says what it is. */
export const newMessageId = sql`'msg_' || replace(gen_random_uuid()::text, '-', '')`;

/** ISO 8601 in UTC with milliseconds, whatever the session's time zone. */
export function isoUtc(column: SQL): SQL {
  return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** The endpoints of `organization` that want `event`, as a FROM item named `e`. */
function subscribed(organization: SQL, event: WebhookEvent): SQL {
  return sql`webhook_endpoints e where e.organization_id = ${organization} and e.enabled and ${event} = any(e.events)`;
}

/**
 * The `conversion.created` messages of the conversions a statement has just stored, as a
 * data-modifying CTE body: `stored` names the CTE of new conversion rows (id, click_id, type,
 * customer_id, value_minor, currency, event_id, source_org_id, target_org_id, created_at) and
 * `exponents` maps each of their currencies to its number of decimals. Each conversion goes to
 * the advertiser that received it and to the organization whose click earned it.
 */
export function conversionCreatedMessages(stored: SQL, exponents: Record<string, number>): SQL {
  const exponent = sql`coalesce((${JSON.stringify(exponents)}::jsonb ->> s.currency)::int, 2)`;
  return sql`
    insert into jobs (id, kind, partition_key, payload)
    select ${newMessageId}, 'webhook', e.id, jsonb_build_object(
      'endpointId', e.id,
      'message', jsonb_build_object(
        'type', 'conversion.created',
        'timestamp', ${isoUtc(sql`now()`)},
        'data', jsonb_build_object(
          'conversionId', s.id, 'type', s.type, 'direction', d.direction, 'clickId', s.click_id,
          'customerId', s.customer_id,
          'value', case when s.value_minor is null then null
            else round(s.value_minor::numeric / power(10::numeric, ${exponent}), ${exponent}) end,
          'currency', s.currency, 'eventId', s.event_id,
          'partner', jsonb_build_object('id', p.id, 'name', p.name),
          'collateralId', c.collateral_id,
          'occurredAt', ${isoUtc(sql`s.created_at`)})))
    from ${stored} s
    cross join lateral (values
      (s.target_org_id, 'received', s.source_org_id),
      (s.source_org_id, 'sent', s.target_org_id)) as d(organization_id, direction, partner_id)
    join webhook_endpoints e
      on e.organization_id = d.organization_id and e.enabled and 'conversion.created' = any(e.events)
    join organizations p on p.id = d.partner_id
    left join click_events c on c.id = s.click_id
    returning 1`;
}

/**
 * Tells `target` that `source` has just added it as a Buddy (CONTRACT §9), in the caller's
 * transaction. The caller decides that it was a Buddy just added, and that neither blocks the other.
 */
export async function queueRelationshipCreated(
  tx: DbOrTx,
  relationship: { id: string; sourceOrgId: string; targetOrgId: string },
): Promise<void> {
  await tx.execute(sql`
    insert into jobs (id, kind, partition_key, payload)
    select ${newMessageId}, 'webhook', e.id, jsonb_build_object(
      'endpointId', e.id,
      'message', jsonb_build_object(
        'type', 'relationship.created',
        'timestamp', ${isoUtc(sql`now()`)},
        'data', jsonb_build_object(
          'relationshipId', ${relationship.id}::text,
          'partner', (select jsonb_build_object('id', o.id, 'name', o.name, 'website', o.website)
            from organizations o where o.id = ${relationship.sourceOrgId}),
          'type', 'complement',
          'occurredAt', ${isoUtc(sql`now()`)})))
    from ${subscribed(sql`${relationship.targetOrgId}`, "relationship.created")}`);
}

/** A `webhook.test` message for one endpoint, whatever it subscribed to; answers its id. */
export async function queueTestMessage(tx: DbOrTx, endpointId: string): Promise<string> {
  const result = await tx.execute<{ id: string }>(sql`
    insert into jobs (id, kind, partition_key, payload)
    values (${newMessageId}, 'webhook', ${endpointId}, jsonb_build_object(
      'endpointId', ${endpointId}::text,
      'test', true,
      'message', jsonb_build_object(
        'type', ${WEBHOOK_TEST_EVENT}::text,
        'timestamp', ${isoUtc(sql`now()`)},
        'data', jsonb_build_object(
          'endpointId', ${endpointId}::text,
          'message', 'This is a test event from Buddy. Your endpoint received it.',
          'occurredAt', ${isoUtc(sql`now()`)}))))
    returning id`);
  const [row] = rowsOf<{ id: string }>(result);
  if (!row) throw new Error("test message insert returned nothing");
  return row.id;
}
