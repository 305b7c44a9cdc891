import { z } from "zod";
import { moneyTotalSchema } from "./tracking";

/** CONTRACT §10: the ledger's window, in days, and the one the Ads API weighs partners over. */
export const LEDGER_DAYS_MIN = 1;
export const LEDGER_DAYS_MAX = 365;
export const LEDGER_DAYS_DEFAULT = 30;
export const AD_WEIGHT_DAYS = 30;

export const AD_WEIGHT_MIN = 0.25;
export const AD_WEIGHT_MAX = 4;
/**
 * Clicks either way that count as much as the first real ones: with a few clicks a partner's
 * weight moves a little, and it takes tens of clicks to reach a bound.
 */
export const AD_WEIGHT_SMOOTHING = 10;

/**
 * How often the Ads API shows a partner's ads to the caller's readers, relative to 1 for a
 * partner with no history (CONTRACT §10):
 *
 *   weight = clamp((received + 10) / (sent + 10), 0.25, 4)
 *
 * over the last AD_WEIGHT_DAYS days, where `received` is the verified clicks the partner sent the
 * caller and `sent` those the caller sent the partner. It is 1 with no history and whenever both
 * give as much, rises with what the partner gives, and falls as the caller gives without return;
 * the smoothing keeps a handful of clicks from swinging it, and the bounds keep every partner in
 * the rotation and none taking it over.
 */
export function adWeight(clicks: { sent: number; received: number }): number {
  const ratio = (clicks.received + AD_WEIGHT_SMOOTHING) / (clicks.sent + AD_WEIGHT_SMOOTHING);
  return Math.min(AD_WEIGHT_MAX, Math.max(AD_WEIGHT_MIN, ratio));
}

export const LEDGER_DAYS_MESSAGE = `days must be a whole number from ${LEDGER_DAYS_MIN} to ${LEDGER_DAYS_MAX}`;

export const partnersQuerySchema = z.object({
  days: z
    .string({ error: LEDGER_DAYS_MESSAGE })
    .regex(/^\d{1,3}$/, { error: LEDGER_DAYS_MESSAGE })
    .transform(Number)
    .refine((days) => days >= LEDGER_DAYS_MIN && days <= LEDGER_DAYS_MAX, { error: LEDGER_DAYS_MESSAGE })
    .optional()
    .describe(
      `The window, in days up to today (UTC), from ${LEDGER_DAYS_MIN} to ${LEDGER_DAYS_MAX}; default ${LEDGER_DAYS_DEFAULT}.`,
    ),
});

const sentReceived = z.object({ sent: z.number().int(), received: z.number().int() });

export const partnerLedgerSchema = z.object({
  organizationId: z.string(),
  name: z.string(),
  /** sent: the caller's clicks (and leads) to the partner's ads; received: the partner's to the caller's. */
  clicks: sentReceived,
  leads: sentReceived,
  revenue: z.object({ sent: z.array(moneyTotalSchema), received: z.array(moneyTotalSchema) }),
  /** clicks.received − clicks.sent: positive when the partner has given more than it got. */
  balance: z.number().int(),
  /** adWeight() of the window's clicks: with the default 30 days, the weight the Ads API uses now. */
  adWeight: z.number(),
});
export type PartnerLedger = z.infer<typeof partnerLedgerSchema>;

export const partnersLedgerSchema = z.object({ partners: z.array(partnerLedgerSchema) });
export type PartnersLedger = z.infer<typeof partnersLedgerSchema>;

/** "Acme sent you 40 more clicks than you sent them": what a balance means, in words. */
export function balanceSentence(name: string, balance: number): string {
  const clicks = (n: number) => `${n} more ${n === 1 ? "click" : "clicks"}`;
  if (balance > 0) return `${name} sent you ${clicks(balance)} than you sent them`;
  if (balance < 0) return `You sent ${name} ${clicks(-balance)} than they sent you`;
  return `You and ${name} have sent each other as many clicks`;
}
