import { z } from "zod";

/** SPEC §2 Billing: the Pro plan card, shown under the beta overlay. */
export const PRO_PLAN = {
  name: "Pro",
  monthlyPrice: 249,
  annualMonthlyPrice: 149,
  annualPrice: 1788,
  features: [
    "Unlimited buddy relationships",
    "Advanced analytics and reporting",
    "Priority support",
    "Custom branding",
  ],
} as const;

export const PLANS = ["free", "pro"] as const;

/**
 * Stripe's subscription statuses under which the organization has the paid plan: a trial, and a
 * failed payment Stripe is still retrying, keep it (and its renewal date, Cancel and Resume).
 */
export const PAID_SUBSCRIPTION_STATUSES = ["active", "trialing", "past_due"] as const;

export type PaidSubscriptionStatus = (typeof PAID_SUBSCRIPTION_STATUSES)[number];

/** The one test of a paid subscription, on the server (plan, Cancel/Resume) and in Settings. */
export function isPaidSubscriptionStatus(
  status: string | null | undefined,
): status is PaidSubscriptionStatus {
  return PAID_SUBSCRIPTION_STATUSES.some((paid) => paid === status);
}

/** CONTRACT §7: `plan` is `free` during the beta. */
export const billingInfoSchema = z.object({
  plan: z.enum(PLANS),
  subscriptionStatus: z.string().nullable(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
});
export type BillingInfo = z.infer<typeof billingInfoSchema>;

export const billingPortalSchema = z.object({ url: z.string() });
export type BillingPortal = z.infer<typeof billingPortalSchema>;

export const BILLING_MESSAGES = {
  notConfigured: "Billing is not available during the beta: platform fees are waived.",
  noSubscription: "There is no active subscription to change.",
  cancelled: "Your subscription will end at the close of the current period.",
  resumed: "Your subscription will continue.",
  badSignature: "Invalid webhook signature",
} as const;
