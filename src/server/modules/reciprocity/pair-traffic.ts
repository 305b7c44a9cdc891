import { windowStart } from "@shared/days";
import { sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client";
import { revenueByPartner, trafficByPartner, windowParts } from "./period-window";

/** What an organization and one partner did together: `sent` the organization's, `received` the partner's. */
export type PairTraffic = {
  clicksSent: number;
  clicksReceived: number;
  leadsSent: number;
  leadsReceived: number;
  /** Conversions with a value; a sale refunded in full still counts (CONTRACT §8). */
  salesSent: number;
  salesReceived: number;
  /** Leads the receiving side recorded itself, by API key or Stripe (CONTRACT §10's proof). */
  provenSent: number;
  provenReceived: number;
};

export const NO_TRAFFIC: PairTraffic = {
  clicksSent: 0,
  clicksReceived: 0,
  leadsSent: 0,
  leadsReceived: 0,
  salesSent: 0,
  salesReceived: 0,
  provenSent: 0,
  provenReceived: 0,
};

type TrafficRow = {
  partner: string;
  clicks_sent: string;
  clicks_received: string;
  leads_sent: string;
  leads_received: string;
  sales_sent: string;
  sales_received: string;
  proven_sent: string;
  proven_received: string;
};

/**
 * The counted clicks, leads (and those proven) and sales between the organization and each partner over the last
 * `days` days, read from the roll-ups as the ledger reads them (period-window.ts); with `partnerId`,
 * that partner's alone. A partner with nothing in the window is not in the map.
 */
export async function trafficWithPartners(
  db: DbOrTx,
  organizationId: string,
  days: number,
  options: { partnerId?: string; now?: Date } = {},
): Promise<Map<string, PairTraffic>> {
  const window = windowParts(windowStart(days, options.now ?? new Date()));
  const result = await db.execute(sql`
    with traffic as (${trafficByPartner(organizationId, window)}
    ), sales as (
      select partner, sum(sales_sent) as sales_sent, sum(sales_received) as sales_received
      from (${revenueByPartner(organizationId, window)}) money
      group by partner
    )
    select * from (
      select coalesce(t.partner, s.partner) as partner, coalesce(t.clicks_sent, 0)::text as clicks_sent,
        coalesce(t.clicks_received, 0)::text as clicks_received, coalesce(t.leads_sent, 0)::text as leads_sent,
        coalesce(t.leads_received, 0)::text as leads_received, coalesce(s.sales_sent, 0)::text as sales_sent,
        coalesce(s.sales_received, 0)::text as sales_received, coalesce(t.proven_sent, 0)::text as proven_sent,
        coalesce(t.proven_received, 0)::text as proven_received
      from traffic t
      full join sales s on s.partner = t.partner
    ) pairs
    ${options.partnerId === undefined ? sql`` : sql`where partner = ${options.partnerId}`}`);
  return new Map(
    rowsOf<TrafficRow>(result).map((row) => [
      row.partner,
      {
        clicksSent: Number(row.clicks_sent),
        clicksReceived: Number(row.clicks_received),
        leadsSent: Number(row.leads_sent),
        leadsReceived: Number(row.leads_received),
        salesSent: Number(row.sales_sent),
        salesReceived: Number(row.sales_received),
        provenSent: Number(row.proven_sent),
        provenReceived: Number(row.proven_received),
      },
    ]),
  );
}
