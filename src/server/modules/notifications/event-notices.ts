import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client";
import { noticeJobs } from "./notices";

/**
 * The notices sent once for good that follow from what one statement records, as CTEs of that
 * statement: the key goes into `notifications_sent` and the mails into the outbox together, or not
 * at all, and of any number of statements racing on one key (instances, batches) only the first
 * to commit inserts it; the others wait on its row and skip it.
 */

/**
 * The first lead and the first revenue an organization records from clicks a partner sent
 * (`first-lead:<organization>:<partner>`, `first-revenue:<organization>:<partner>`), from the
 * conversions a statement stored (`stored`: conversion-store.ts). A conversion that is both (a
 * first purchase) makes one mail. CTEs to follow `stored` in its WITH list.
 */
export function firstConversionNotices(stored: SQL): SQL {
  return sql`first_keys as (
      insert into notifications_sent (key)
      select distinct k.key from ${stored} s
      cross join lateral (values
        (case when s.is_lead then 'first-lead:' || s.target_org_id || ':' || s.source_org_id end),
        (case when s.value_minor > 0 then 'first-revenue:' || s.target_org_id || ':' || s.source_org_id end)
      ) as k(key)
      where k.key is not null and s.source_org_id is not null
        and not exists (select 1 from notifications_sent n where n.key = k.key)
      -- Batches claiming the same keys wait for each other in one order.
      order by k.key
      on conflict do nothing
      returning key
    ), first_pairs as (
      select split_part(key, ':', 2) as organization_id, split_part(key, ':', 3) as partner_id,
        bool_or(key like 'first-lead:%') as lead, bool_or(key like 'first-revenue:%') as revenue
      from first_keys
      group by 1, 2
    ), first_mails as (${noticeJobs({
      type: "first_conversion",
      organization: sql`f.organization_id`,
      from: sql`first_pairs f left join lateral (
        select s.value_minor, s.currency from ${stored} s
        where f.revenue and s.target_org_id = f.organization_id and s.source_org_id = f.partner_id
          and s.value_minor > 0
        order by s.created_at, s.id
        limit 1) v on true`,
      notice: sql`jsonb_build_object('type', 'first_conversion', 'organizationId', f.organization_id,
        'partnerId', f.partner_id, 'lead', f.lead, 'revenue', case when v.value_minor is null then null
        else jsonb_build_object('valueMinor', v.value_minor, 'currency', v.currency) end)`,
    })})`;
}

/**
 * Once per failing streak (`webhook-failing:<endpoint>:<first failure, ms>`): the admins of each
 * enabled endpoint among `endpointIds` whose last attempts failed. A success ends the streak
 * (`failing_since` back to null), so the next failure is a new one. Answers the mails queued.
 */
export async function queueWebhookFailingNotices(
  db: DbOrTx,
  endpointIds: readonly string[],
): Promise<number> {
  if (endpointIds.length === 0) return 0;
  const result = await db.execute(sql`
    with failing as (
      select e.id, e.organization_id, e.failing_since,
        'webhook-failing:' || e.id || ':' || (extract(epoch from e.failing_since) * 1000)::bigint as key
      from webhook_endpoints e
      where e.id in (select json_array_elements_text(${JSON.stringify(endpointIds)}::json))
        and e.enabled and e.failing_since is not null
    ), claimed as (
      insert into notifications_sent (key)
      select f.key from failing f
      where not exists (select 1 from notifications_sent n where n.key = f.key)
      order by f.key
      on conflict do nothing
      returning key
    ), mails as (${noticeJobs({
      type: "webhook_failing",
      organization: sql`f.organization_id`,
      from: sql`claimed c join failing f on f.key = c.key`,
      notice: sql`jsonb_build_object('type', 'webhook_failing', 'organizationId', f.organization_id,
        'endpointId', f.id, 'since', to_char(f.failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))`,
    })})
    select count(*)::int as queued from mails`);
  return rowsOf<{ queued: number }>(result)[0]?.queued ?? 0;
}

/**
 * A new organization on Buddy (`joinedId`, just proven) is, for each proven organization of its
 * category (the suggestions engine's class: it offers the same category's companies as
 * competitors), a new competitor: their people with New Competitor Alerts on hear of it once
 * (`competitor:<organization>:<newcomer>`), unless either side already blocked the other, the
 * organization already lists it, or dismissed it as a suggestion. In the onboarding's transaction.
 */
export async function queueCompetitorAlerts(tx: DbOrTx, joinedId: string): Promise<number> {
  const result = await tx.execute(sql`
    with joined as (
      select id, category from organizations where id = ${joinedId} and category is not null
    ), rivals as (
      select o.id, 'competitor:' || o.id || ':' || j.id as key
      from organizations o
      join joined j on o.category = j.category and o.id <> j.id
      where o.domain_verified_at is not null
        and not exists (
          select 1 from relationships r
          where (r.source_org_id = o.id and r.target_org_id = j.id and r.status = 'active')
            or (r.source_org_id = j.id and r.target_org_id = o.id and r.type = 'competitor' and r.status = 'active'))
        and not exists (
          select 1 from dismissed_suggestions d where d.organization_id = o.id and d.target_org_id = j.id)
    ), claimed as (
      insert into notifications_sent (key)
      select key from rivals order by key
      on conflict do nothing
      returning key
    ), mails as (${noticeJobs({
      type: "competitor_joined",
      organization: sql`r.id`,
      from: sql`claimed c join rivals r on r.key = c.key`,
      notice: sql`jsonb_build_object('type', 'competitor_joined', 'organizationId', r.id, 'competitorId', ${joinedId}::text)`,
    })})
    select count(*)::int as queued from mails`);
  return rowsOf<{ queued: number }>(result)[0]?.queued ?? 0;
}
