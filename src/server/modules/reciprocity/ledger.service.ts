import { windowStart } from "@shared/days";
import { DELETED_ORGANIZATION_NAME } from "@shared/deletion";
import { toMajorUnits } from "@shared/money";
import { adWeight } from "@shared/reciprocity";
import type { PartnerLedger, PartnersLedger } from "@shared/reciprocity-schemas";
import { sql } from "drizzle-orm";
import { type DbOrTx, rowsOf, withoutParallelWorkers } from "../../db/client";
import { revenueByPartner, trafficByPartner, windowParts } from "./period-window";

/**
 * One row per listed partner (`currency` null: its name and clicks and leads), then one per partner
 * and currency with revenue (`name` null: sent and received in clicks_sent and clicks_received).
 */
type LedgerRow = {
  id: string;
  name: string | null;
  currency: string | null;
  clicks_sent: string | null;
  clicks_received: string | null;
  leads_sent: string | null;
  leads_received: string | null;
  /** Proven leads and sales both ways (adWeight's proof); null on the revenue rows. */
  proof_sent: string | null;
  proof_received: string | null;
};

/**
 * CONTRACT §10: per partner, what the caller gave it (sent: the caller's clicks and leads to the
 * partner's ads, and the revenue they earned it) and what it gave the caller (received), over the
 * window, with the balance and the ad weight; every Buddy is listed, traffic or not, and nobody
 * on either side of the caller's block list ever is. One statement, from the roll-ups only: the
 * window's years, months and month parts from the period roll-ups and its few days from the daily
 * ones (period-window.ts), without parallel workers.
 */
export async function readPartnersLedger(
  db: DbOrTx,
  organizationId: string,
  days: number,
  now = new Date(),
): Promise<PartnersLedger> {
  const window = windowParts(windowStart(days, now));
  const rows = await withoutParallelWorkers(db, async (tx) =>
    rowsOf<LedgerRow>(
      await tx.execute(sql`
        with traffic as (${trafficByPartner(organizationId, window)}
        ), money as (${revenueByPartner(organizationId, window)}
        ), listed as (
          select partner from traffic
          union select partner from money
          union select target_org_id from relationships
          where source_org_id = ${organizationId} and type = 'complement' and status = 'active'
          except select case when source_org_id = ${organizationId} then target_org_id else source_org_id end
          from relationships
          where type = 'competitor' and status = 'active'
            and (source_org_id = ${organizationId} or target_org_id = ${organizationId})
          except select ${organizationId}
        )
        select l.partner as id, coalesce(o.name, ${DELETED_ORGANIZATION_NAME}) as name, null as currency, coalesce(t.clicks_sent, 0)::text as clicks_sent,
          coalesce(t.clicks_received, 0)::text as clicks_received, coalesce(t.leads_sent, 0)::text as leads_sent,
          coalesce(t.leads_received, 0)::text as leads_received,
          (coalesce(t.proven_sent, 0) + coalesce(s.sales_sent, 0))::text as proof_sent,
          (coalesce(t.proven_received, 0) + coalesce(s.sales_received, 0))::text as proof_received
        from listed l
        -- A deleted organization's roll-ups are its partners' still (issue 38).
        left join organizations o on o.id = l.partner
        left join traffic t on t.partner = l.partner
        left join (
          select partner, sum(sales_sent) as sales_sent, sum(sales_received) as sales_received
          from money group by partner
        ) s on s.partner = l.partner
        union all
        select m.partner, null, m.currency, m.sent::text, m.received::text, null, null, null, null
        from money m
        join listed l on l.partner = m.partner`),
    ),
  );
  const partners = new Map<string, PartnerLedger>();
  for (const row of rows) {
    if (row.currency !== null || row.name === null) continue;
    const clicks = { sent: Number(row.clicks_sent), received: Number(row.clicks_received) };
    partners.set(row.id, {
      organizationId: row.id,
      name: row.name,
      clicks,
      leads: { sent: Number(row.leads_sent), received: Number(row.leads_received) },
      revenue: { sent: [], received: [] },
      balance: clicks.received - clicks.sent,
      adWeight: adWeight(clicks, { sent: Number(row.proof_sent), received: Number(row.proof_received) }),
    });
  }
  // Revenue rows in currency order, so each partner's totals are.
  const money = rows.filter((row) => row.currency !== null);
  money.sort((a, b) =>
    (a.currency as string) < (b.currency as string) ? -1 : a.currency === b.currency ? 0 : 1,
  );
  for (const row of money) {
    const partner = partners.get(row.id);
    const currency = row.currency as string;
    const sent = Number(row.clicks_sent);
    const received = Number(row.clicks_received);
    if (sent > 0) partner?.revenue.sent.push({ currency, value: toMajorUnits(sent, currency) });
    if (received > 0) partner?.revenue.received.push({ currency, value: toMajorUnits(received, currency) });
  }
  return {
    partners: [...partners.values()].sort(
      (a, b) =>
        b.clicks.sent + b.clicks.received - (a.clicks.sent + a.clicks.received) ||
        a.name.localeCompare(b.name) ||
        a.organizationId.localeCompare(b.organizationId),
    ),
  };
}
