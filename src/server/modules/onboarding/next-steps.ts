import { NEXT_STEPS, type NextStepId, type NextSteps } from "@shared/next-steps";
import { sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client";
import { collateral, conversions, pairDailyStats, relationships, stripeConnections } from "../../db/schema";

/**
 * The overview's "Next steps", each ticked by what the database holds rather than by a flag the
 * user sets, so a step done anywhere (the API, another member, Stripe) ticks itself:
 * - add_buddy: an active Buddy (SPEC §2's Buddies count);
 * - publish_ad: an active ad of the organization's own (the only kind partners can share);
 * - share_ad: a counted click on a link the organization shared (a partner's ad reached a person;
 *   copying a link proves nothing, and bots and repeats do not count);
 * - install_tracking: a lead it received through its conversion script or API key: one needs the
 *   click script to have kept the click id and the conversion to have been sent, which is the
 *   install working end to end (Stripe's own purchases are the next step's);
 * - connect_stripe: a Stripe connection (CONTRACT §8).
 * One statement of five EXISTS, each on an index that starts with the organization.
 */
export async function readNextSteps(db: DbOrTx, organizationId: string): Promise<NextSteps> {
  const result = await db.execute<Record<NextStepId, boolean>>(sql`select
    exists (select 1 from ${relationships}
      where ${relationships.sourceOrgId} = ${organizationId} and ${relationships.type} = 'complement'
        and ${relationships.status} = 'active') as add_buddy,
    exists (select 1 from ${collateral}
      where ${collateral.organizationId} = ${organizationId} and ${collateral.status} = 'active') as publish_ad,
    exists (select 1 from ${pairDailyStats}
      where ${pairDailyStats.sourceOrgId} = ${organizationId} and ${pairDailyStats.clicks} > 0) as share_ad,
    exists (select 1 from ${conversions}
      where ${conversions.targetOrgId} = ${organizationId}
        and ${conversions.channel} is distinct from 'stripe') as install_tracking,
    exists (select 1 from ${stripeConnections}
      where ${stripeConnections.organizationId} = ${organizationId}) as connect_stripe`);
  const [row] = rowsOf<Record<NextStepId, boolean>>(result);
  return { steps: NEXT_STEPS.map((id) => ({ id, done: row?.[id] === true })) };
}
