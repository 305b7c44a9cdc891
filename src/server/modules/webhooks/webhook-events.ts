import { DEFAULT_CURRENCY, toMajorUnits } from "@shared/money";
import { OVERLAP_SMALLEST_SHOWN, type OverlapPopulation } from "@shared/overlap";
import {
  WEBHOOK_DIRECTIONS,
  WEBHOOK_MESSAGE_SCHEMAS,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TEST_TEXT,
  type WebhookData,
  type WebhookEvent,
  type WebhookMessageType,
} from "@shared/webhooks";
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type DbOrTx, rowsOf } from "../../db/client";

/**
 * The messages of CONTRACT §9 as the outbox keeps them: one job per (event, endpoint), whose id is
 * the message's `webhook-id` and whose `created_at` is the message's `timestamp`. Each is written
 * by the statement or transaction that records its event, so a message exists only if its event
 * committed; it holds the endpoint, the event type and the ids of what the event is about. The
 * message itself is built when the job is claimed, from those rows, by the event's producer below,
 * and checked against its schema in shared/webhooks.ts before it is signed.
 *
 * Adding an event type: its schema in shared/webhooks.ts, its producer here (the ids its job
 * carries, the SQL that queues it, how its data is read back), and its test.
 */

/** A claimed job of one event type: its ids, and when its message was made (ISO 8601, UTC). */
type Claimed<Ids> = { id: string; madeAt: string; payload: Ids };

type Producer<Type extends WebhookMessageType, Job extends z.ZodObject> = {
  /** The job's payload: `{endpointId, type}` and the ids the message is built from. */
  job: Job;
  /**
   * The `data` of each claimed message, by job id, read in one go for a batch. A message whose
   * rows are gone (its conversion deleted with its organization) has none and is skipped.
   */
  data(db: DbOrTx, jobs: readonly Claimed<z.infer<Job>>[]): Promise<Map<string, WebhookData<Type>>>;
};

/** A message built, as it is signed and sent; or why it cannot be. */
export type BuiltMessage = { body: string } | { skipped: string } | { failed: string };

/** The body sent: `{type, timestamp, data}` as its schema orders it, once the schema accepts it. */
export function messageBody(type: WebhookMessageType, message: unknown): BuiltMessage {
  const checked = WEBHOOK_MESSAGE_SCHEMAS[type].safeParse(message);
  return checked.success
    ? { body: JSON.stringify(checked.data) }
    : { failed: `the ${type} message does not match its schema: ${z.prettifyError(checked.error)}` };
}

/**
 * A body an earlier attempt sent, to be sent again as it was: only if it is still a whole message
 * of its type (a body over the 16 KB kept would have been cut).
 */
export function resentBody(type: WebhookMessageType, body: string): BuiltMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { failed: "the body kept is not the whole message" };
  }
  return WEBHOOK_MESSAGE_SCHEMAS[type].safeParse(parsed).success
    ? { body }
    : { failed: `the body kept is not a whole ${type} message` };
}

function producer<Type extends WebhookMessageType, Ids extends z.ZodRawShape>(
  type: Type,
  ids: Ids,
  data: Producer<Type, ReturnType<typeof jobSchema<Type, Ids>>>["data"],
) {
  const job = jobSchema(type, ids);
  return {
    job,
    data,
    /** Builds the messages of a batch of claimed jobs of this type, by job id. */
    async messages(db: DbOrTx, claimed: readonly Claimed<unknown>[]): Promise<Map<string, BuiltMessage>> {
      const jobs = claimed.map((entry) => ({ ...entry, payload: job.parse(entry.payload) }));
      const found = await data(db, jobs);
      return new Map(
        jobs.map((entry): [string, BuiltMessage] => {
          const fields = found.get(entry.id);
          return [
            entry.id,
            fields === undefined
              ? { skipped: `its ${type} rows are gone` }
              : messageBody(type, { type, timestamp: entry.madeAt, data: fields }),
          ];
        }),
      );
    },
  };
}

function jobSchema<Type extends WebhookMessageType, Ids extends z.ZodRawShape>(type: Type, ids: Ids) {
  return z.object({ endpointId: z.string(), type: z.literal(type), ...ids });
}

/** The ids as a JSON array for `in (select json_array_elements_text(…))`. */
function idList(values: readonly string[]): SQL {
  return sql`(select json_array_elements_text(${JSON.stringify([...new Set(values)])}::json))`;
}

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

type ConversionRow = {
  id: string;
  type: WebhookData<"conversion.created">["type"];
  click_id: string;
  customer_id: string | null;
  value_minor: string | null;
  currency: string | null;
  event_id: string | null;
  source_org_id: string;
  source_name: string;
  target_org_id: string;
  target_name: string;
  collateral_id: string | null;
  occurred_at: string;
};

type OverlapRunRow = {
  id: string;
  starter_id: string;
  responder_id: string;
  starter_population: OverlapPopulation;
  responder_population: OverlapPopulation;
  overlap_count: number | null;
  completed_at: string;
  starter_name: string;
  responder_name: string;
};

type RefundRow = {
  id: string;
  refund_id: string;
  kind: WebhookData<"conversion.refunded">["reason"];
  value_minor: string;
  currency: string;
  conversion_id: string;
  source_org_id: string;
  source_name: string;
  target_org_id: string;
  target_name: string;
  occurred_at: string;
  conversion_minor: string | null;
  refunded_minor: string | null;
};

/** Each event type's producer: what its job carries and how its message's data is read back. */
export const WEBHOOK_PRODUCERS = {
  "conversion.created": producer(
    "conversion.created",
    { conversionId: z.string(), direction: z.enum(WEBHOOK_DIRECTIONS) },
    async (db, jobs) => {
      const result = await db.execute(sql`
        select c.id, c.type, c.click_id, c.customer_id, c.value_minor::text as value_minor, c.currency,
          c.event_id, c.source_org_id, so.name as source_name, c.target_org_id, t.name as target_name,
          k.collateral_id, ${isoUtc(sql`c.created_at`)} as occurred_at
        from conversions c
        join organizations so on so.id = c.source_org_id
        join organizations t on t.id = c.target_org_id
        left join click_events k on k.id = c.click_id
        where c.id in ${idList(jobs.map((job) => job.payload.conversionId))}`);
      const conversions = new Map(rowsOf<ConversionRow>(result).map((row) => [row.id, row]));
      const data = new Map<string, WebhookData<"conversion.created">>();
      for (const job of jobs) {
        const c = conversions.get(job.payload.conversionId);
        if (!c) continue;
        const received = job.payload.direction === "received";
        data.set(job.id, {
          conversionId: c.id,
          type: c.type,
          direction: job.payload.direction,
          clickId: c.click_id,
          customerId: c.customer_id,
          value:
            c.value_minor === null
              ? null
              : toMajorUnits(Number(c.value_minor), c.currency ?? DEFAULT_CURRENCY),
          currency: c.currency,
          eventId: c.event_id,
          partner: received
            ? { id: c.source_org_id, name: c.source_name }
            : { id: c.target_org_id, name: c.target_name },
          collateralId: c.collateral_id,
          occurredAt: c.occurred_at,
        });
      }
      return data;
    },
  ),
  "conversion.refunded": producer(
    "conversion.refunded",
    // `refund` is the refund row's id (refunds.id), the message's `refundId`.
    { refund: z.string(), direction: z.enum(WEBHOOK_DIRECTIONS) },
    async (db, jobs) => {
      const result = await db.execute(sql`
        select r.id, r.refund_id, r.kind, r.value_minor::text as value_minor, r.currency, r.conversion_id,
          r.source_org_id, so.name as source_name, r.target_org_id, t.name as target_name,
          ${isoUtc(sql`r.created_at`)} as occurred_at, c.value_minor::text as conversion_minor,
          (select sum(x.value_minor) from refunds x
            where x.conversion_id = r.conversion_id and (x.created_at, x.id) <= (r.created_at, r.id))::text
            as refunded_minor
        from refunds r
        join conversions c on c.id = r.conversion_id
        join organizations so on so.id = r.source_org_id
        join organizations t on t.id = r.target_org_id
        where r.id in ${idList(jobs.map((job) => job.payload.refund))}`);
      const refunds = new Map(rowsOf<RefundRow>(result).map((row) => [row.id, row]));
      const data = new Map<string, WebhookData<"conversion.refunded">>();
      for (const job of jobs) {
        const r = refunds.get(job.payload.refund);
        if (!r) continue;
        const major = (minor: string | null) => toMajorUnits(Number(minor ?? 0), r.currency);
        data.set(job.id, {
          refundId: r.id,
          conversionId: r.conversion_id,
          direction: job.payload.direction,
          value: major(r.value_minor),
          currency: r.currency,
          reason: r.kind,
          partner:
            job.payload.direction === "received"
              ? { id: r.source_org_id, name: r.source_name }
              : { id: r.target_org_id, name: r.target_name },
          occurredAt: r.occurred_at,
          externalRefundId: r.refund_id,
          refundedTotal: major(r.refunded_minor),
          netValue: toMajorUnits(Number(r.conversion_minor ?? 0) - Number(r.refunded_minor ?? 0), r.currency),
        });
      }
      return data;
    },
  ),
  "relationship.created": producer(
    "relationship.created",
    // The company that added the receiver: its message names it even if the entry is removed meanwhile.
    { relationshipId: z.string(), partnerId: z.string() },
    async (db, jobs) => {
      const result = await db.execute(sql`
        select o.id, o.name, o.website from organizations o
        where o.id in ${idList(jobs.map((job) => job.payload.partnerId))}`);
      const partners = new Map(
        rowsOf<{ id: string; name: string; website: string }>(result).map((row) => [row.id, row]),
      );
      const data = new Map<string, WebhookData<"relationship.created">>();
      for (const job of jobs) {
        const partner = partners.get(job.payload.partnerId);
        if (!partner) continue;
        data.set(job.id, {
          relationshipId: job.payload.relationshipId,
          partner: { id: partner.id, name: partner.name, website: partner.website },
          type: "complement",
          occurredAt: job.madeAt,
        });
      }
      return data;
    },
  ),
  "overlap.completed": producer(
    "overlap.completed",
    // The receiving side: each of the two organizations sees the run from its own side.
    { runId: z.string(), organizationId: z.string() },
    async (db, jobs) => {
      const result = await db.execute(sql`
        select r.id, r.starter_id, r.responder_id, r.starter_population, r.responder_population,
          r.overlap_count, ${isoUtc(sql`r.completed_at`)} as completed_at, s.name as starter_name,
          p.name as responder_name
        from overlap_runs r
        join organizations s on s.id = r.starter_id
        join organizations p on p.id = r.responder_id
        where r.status = 'completed' and r.id in ${idList(jobs.map((job) => job.payload.runId))}`);
      const runs = new Map(rowsOf<OverlapRunRow>(result).map((row) => [row.id, row]));
      const data = new Map<string, WebhookData<"overlap.completed">>();
      for (const job of jobs) {
        const run = runs.get(job.payload.runId);
        if (!run) continue;
        const startedByYou = run.starter_id === job.payload.organizationId;
        data.set(job.id, {
          runId: run.id,
          partner: startedByYou
            ? { id: run.responder_id, name: run.responder_name }
            : { id: run.starter_id, name: run.starter_name },
          mine: startedByYou ? run.starter_population : run.responder_population,
          theirs: startedByYou ? run.responder_population : run.starter_population,
          count:
            run.overlap_count !== null && run.overlap_count >= OVERLAP_SMALLEST_SHOWN
              ? run.overlap_count
              : null,
          occurredAt: run.completed_at,
        });
      }
      return data;
    },
  ),
  [WEBHOOK_TEST_EVENT]: producer(WEBHOOK_TEST_EVENT, {}, async (_db, jobs) => {
    return new Map(
      jobs.map((job) => [
        job.id,
        { message: WEBHOOK_TEST_TEXT, endpointId: job.payload.endpointId, occurredAt: job.madeAt },
      ]),
    );
  }),
} satisfies { [Type in WebhookMessageType]: Producer<Type, z.ZodObject> };

/**
 * What webhook jobs queued before messages were built at delivery hold: the message itself, built
 * in SQL (its `data` in jsonb's key order), and `test` for a test event. Still delivered after an
 * upgrade: the message is checked against its schema, which puts its fields back in order.
 */
const builtMessageJobSchema = z.object({
  endpointId: z.string(),
  /** Sent even to a disabled endpoint: an admin checking it before enabling it again. */
  test: z.boolean().optional(),
  message: z.object({
    type: z.enum(Object.keys(WEBHOOK_MESSAGE_SCHEMAS) as [WebhookMessageType, ...WebhookMessageType[]]),
    timestamp: z.string(),
    data: z.record(z.string(), z.unknown()),
  }),
});

/**
 * A message sent again (Resend, in the deliveries drawer): its `webhook-id` and the body an earlier
 * attempt sent, read back from that attempt when the job is claimed, so the receiver gets the same
 * message, signed anew. The job's own id is new (a job's id is unique); `messageId` is the id sent.
 */
const resendJobSchema = z.object({
  endpointId: z.string(),
  resend: z.object({
    messageId: z.string(),
    attemptId: z.string(),
    type: z.enum(Object.keys(WEBHOOK_MESSAGE_SCHEMAS) as [WebhookMessageType, ...WebhookMessageType[]]),
    /** The message's attempts before it: the resend is listed as attempt `after + 1`. */
    after: z.number().int().nonnegative(),
  }),
});
export type ResendJob = z.infer<typeof resendJobSchema>;

/**
 * A webhook job's payload, as parsed when it is claimed: ids to build the message from, (queued by
 * an older release) the message built, or the attempt whose body is sent again.
 */
export const webhookJobPayloadSchema = z.union([
  z.discriminatedUnion("type", [
    WEBHOOK_PRODUCERS["conversion.created"].job,
    WEBHOOK_PRODUCERS["conversion.refunded"].job,
    WEBHOOK_PRODUCERS["relationship.created"].job,
    WEBHOOK_PRODUCERS["overlap.completed"].job,
    WEBHOOK_PRODUCERS[WEBHOOK_TEST_EVENT].job,
  ]),
  builtMessageJobSchema,
  resendJobSchema,
]);
export type WebhookJobPayload = z.infer<typeof webhookJobPayloadSchema>;

/** The jsonb payload of a job of `type`, built in SQL from `{field: expression}` (its endpoint and ids). */
function jobPayload<Type extends WebhookMessageType>(
  type: Type,
  fields: Record<Exclude<keyof z.infer<(typeof WEBHOOK_PRODUCERS)[Type]["job"]>, "type">, SQL>,
): SQL {
  const pairs = Object.entries<SQL>({ ...fields, type: sql`${type}::text` }).map(
    ([key, value]) => sql`${key}::text, ${value}`,
  );
  return sql`jsonb_build_object(${sql.join(pairs, sql`, `)})`;
}

/**
 * The `conversion.created` messages of the conversions a statement has just stored, as a
 * data-modifying CTE body: `stored` names the CTE of new conversion rows (id, source_org_id,
 * target_org_id). Each conversion goes to the advertiser that received it and to the organization
 * whose click earned it.
 */
export function conversionCreatedMessages(stored: SQL): SQL {
  const payload = jobPayload("conversion.created", {
    endpointId: sql`e.id`,
    conversionId: sql`s.id`,
    direction: sql`d.direction`,
  });
  return sql`
    insert into jobs (id, kind, partition_key, payload)
    select ${newMessageId}, 'webhook', e.id, ${payload}
    from ${stored} s
    cross join lateral (values
      (s.target_org_id, 'received'),
      (s.source_org_id, 'sent')) as d(organization_id, direction)
    join webhook_endpoints e
      on e.organization_id = d.organization_id and e.enabled and 'conversion.created' = any(e.events)
    returning 1`;
}

/**
 * The `conversion.refunded` messages of a refund just recorded, in the caller's transaction
 * (tracking/conversions/refunds.service.ts): to the advertiser that received the conversion and to
 * the organization whose click earned it, as `conversion.created` went.
 */
export async function queueConversionRefunded(
  tx: DbOrTx,
  refund: { id: string; sourceOrgId: string; targetOrgId: string },
): Promise<void> {
  const payload = jobPayload("conversion.refunded", {
    endpointId: sql`e.id`,
    refund: sql`${refund.id}::text`,
    direction: sql`d.direction`,
  });
  await tx.execute(sql`
    insert into jobs (id, kind, partition_key, payload)
    select ${newMessageId}, 'webhook', e.id, ${payload}
    from (values (${refund.targetOrgId}::text, 'received'::text), (${refund.sourceOrgId}::text, 'sent'::text))
      as d(organization_id, direction)
    join webhook_endpoints e
      on e.organization_id = d.organization_id and e.enabled and 'conversion.refunded' = any(e.events)`);
}

/**
 * Tells `target` that `source` has just added it as a Buddy (CONTRACT §9), in the caller's
 * transaction. The caller decides that it was a Buddy just added, and that neither blocks the other.
 */
export async function queueRelationshipCreated(
  tx: DbOrTx,
  relationship: { id: string; sourceOrgId: string; targetOrgId: string },
): Promise<void> {
  const payload = jobPayload("relationship.created", {
    endpointId: sql`e.id`,
    relationshipId: sql`${relationship.id}::text`,
    partnerId: sql`${relationship.sourceOrgId}::text`,
  });
  await tx.execute(sql`
    insert into jobs (id, kind, partition_key, payload)
    select ${newMessageId}, 'webhook', e.id, ${payload}
    from ${subscribed(sql`${relationship.targetOrgId}`, "relationship.created")}`);
}

/**
 * Tells both sides of an overlap run that it finished (CONTRACT §11), in the completing
 * transaction; each message is built from its receiver's side of the run.
 */
export async function queueOverlapCompleted(
  tx: DbOrTx,
  run: { id: string; starterId: string; responderId: string },
): Promise<void> {
  const payload = jobPayload("overlap.completed", {
    endpointId: sql`e.id`,
    runId: sql`${run.id}::text`,
    organizationId: sql`d.organization_id`,
  });
  await tx.execute(sql`
    insert into jobs (id, kind, partition_key, payload)
    select ${newMessageId}, 'webhook', e.id, ${payload}
    from (values (${run.starterId}::text), (${run.responderId}::text)) as d(organization_id)
    join webhook_endpoints e
      on e.organization_id = d.organization_id and e.enabled and 'overlap.completed' = any(e.events)`);
}

/** A `webhook.test` message for one endpoint, whatever it subscribed to; answers its id. */
export async function queueTestMessage(tx: DbOrTx, endpointId: string): Promise<string> {
  const payload = jobPayload(WEBHOOK_TEST_EVENT, {
    endpointId: sql`${endpointId}::text`,
  });
  const result = await tx.execute<{ id: string }>(sql`
    insert into jobs (id, kind, partition_key, payload)
    values (${newMessageId}, 'webhook', ${endpointId}, ${payload})
    returning id`);
  const [row] = rowsOf<{ id: string }>(result);
  if (!row) throw new Error("test message insert returned nothing");
  return row.id;
}

/** Queues a resend (see `resendJobSchema`) in the caller's transaction. */
export async function queueResend(tx: DbOrTx, job: ResendJob): Promise<void> {
  const payload: ResendJob = resendJobSchema.parse(job);
  await tx.execute(sql`
    insert into jobs (id, kind, partition_key, payload)
    values (${newMessageId}, 'webhook', ${job.endpointId}, ${JSON.stringify(payload)}::jsonb)`);
}
