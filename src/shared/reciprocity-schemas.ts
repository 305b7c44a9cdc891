import { z } from "zod";
import { daysQuerySchema } from "./days-query";
import { LEDGER_DAYS_DEFAULT, LEDGER_DAYS_MAX, LEDGER_DAYS_MIN } from "./reciprocity";
import { moneyTotalSchema, sentReceivedSchema } from "./tracking";

export const partnersQuerySchema = z.object({
  days: daysQuerySchema(LEDGER_DAYS_MIN, LEDGER_DAYS_MAX, LEDGER_DAYS_DEFAULT),
});

export const partnerLedgerSchema = z.object({
  organizationId: z.string(),
  name: z.string(),
  /** sent: the caller's clicks (and leads) to the partner's ads; received: the partner's to the caller's. */
  clicks: sentReceivedSchema,
  leads: sentReceivedSchema,
  revenue: z.object({ sent: z.array(moneyTotalSchema), received: z.array(moneyTotalSchema) }),
  /** clicks.received − clicks.sent: positive when the partner has given more than it got. */
  balance: z.number().int(),
  /** adWeight() of the window's clicks: with the default 30 days, the weight the Ads API uses now. */
  adWeight: z.number(),
});
export type PartnerLedger = z.infer<typeof partnerLedgerSchema>;

export const partnersLedgerSchema = z.object({ partners: z.array(partnerLedgerSchema) });
export type PartnersLedger = z.infer<typeof partnersLedgerSchema>;
