import { z } from "zod";
import {
  UNCOUNTED_DAYS_DEFAULT,
  UNCOUNTED_DAYS_MAX,
  UNCOUNTED_DAYS_MIN,
  type UncountedClickReason,
} from "./click-reasons";
import { daysQuerySchema } from "./days-query";
import { DEFAULT_CURRENCY, isCurrency, moneyMessage, toMinorUnits } from "./money";
import { allowedJson, text } from "./text";

/** SPEC §9 / CONTRACT §5. */
export const CONVERSION_TYPES = ["signup", "trial", "purchase", "upgrade", "activation", "referral"] as const;

/**
 * How a conversion reached Buddy: the pixel (anyone holding the click id), the organization's own
 * API key, or its Stripe. Only the last two prove who sent it (CONTRACT §10's weights).
 */
export const CONVERSION_CHANNELS = ["pixel", "key", "stripe"] as const;
export type ConversionChannel = (typeof CONVERSION_CHANNELS)[number];

/** CONTRACT §8: what takes revenue back (a refund, a dispute) or gives it back (a dispute won). */
export const REFUND_KINDS = ["refund", "dispute", "dispute_won"] as const;
export type RefundKind = (typeof REFUND_KINDS)[number];
export const CLICK_ID_TTL_MS = 2_592_000_000;
export const CLICK_ID_PARAM = "bclickid";

/** A short link's code: this many random bytes, written in base64url (8 characters). */
export const SHORT_CODE_BYTES = 6;
/** Every code a short link can have: base64url, at most 32 characters. */
const SHORT_CODE = /^[A-Za-z0-9_-]{1,32}$/;
export const isShortCode = (value: string): boolean => SHORT_CODE.test(value);
/** Longer than any click id the server issues (44 characters); its MAC decides the rest. */
export const CLICK_ID_MAX_LENGTH = 64;
/** The cap on a conversion's metadata, in UTF-8 bytes of its JSON (what is sent and stored). */
export const CONVERSION_METADATA_MAX_BYTES = 4096;

export const conversionTypeSchema = z.enum(CONVERSION_TYPES, {
  error: `type must be one of ${CONVERSION_TYPES.join(", ")}`,
});
export type ConversionType = z.infer<typeof conversionTypeSchema>;

const utf8 = new TextEncoder();
/** Bytes, not characters: "é" is one character and 2 bytes, "中" one and 3, an emoji two and 4. */
export function jsonByteLength(value: unknown): number {
  return utf8.encode(JSON.stringify(value)).byteLength;
}

/** The advertiser's own id for a customer, and an organization's idempotency key (CONTRACT §8). */
export const CUSTOMER_ID_MAX_LENGTH = 128;
export const EVENT_ID_MAX_LENGTH = 128;

/** How long a customer bound to a click brings that click's partner its later conversions. */
export const CUSTOMER_ATTRIBUTION_DAYS = 365;

export const CLICK_OR_CUSTOMER_MESSAGE = "clickId or customerId is required";

/** A money field pair as CONTRACT §8 checks it; the currency upper-cased first (Stripe writes `usd`). */
export function moneyIssue(
  value: number | string | undefined,
  currency: string | undefined,
): string | undefined {
  const code = (currency ?? DEFAULT_CURRENCY).toUpperCase();
  if (value === undefined) return isCurrency(code) ? undefined : moneyMessage("currency", code);
  const result = toMinorUnits(value, code);
  return "problem" in result ? moneyMessage(result.problem, code) : undefined;
}

export const recordConversionSchema = z
  .object({
    clickId: text("clickId")
      .min(1, { error: "clickId must not be empty" })
      .max(CLICK_ID_MAX_LENGTH)
      .optional()
      .describe(
        "The bclickid your landing page received. Required unless customerId names a bound customer.",
      ),
    customerId: text("customerId")
      .min(1, { error: "customerId must not be empty" })
      .max(CUSTOMER_ID_MAX_LENGTH)
      .optional()
      .describe(
        "Your own id for the customer (a Stripe cus_…, a CRM id). With a clickId it binds the customer to that " +
          "click (the first binding wins); alone, the conversion is credited to the bound click for 365 days.",
      ),
    type: conversionTypeSchema,
    value: z
      .number({ error: "value must be a number" })
      .optional()
      .describe(
        "Money in major units (49.99), never negative, with at most the currency's decimals (0 for JPY).",
      ),
    currency: text("currency", { error: "currency must be a string" })
      .max(8)
      .optional()
      .describe("An ISO 4217 code such as USD, EUR or JPY. Default USD."),
    eventId: text("eventId")
      .min(1, { error: "eventId must not be empty" })
      .max(EVENT_ID_MAX_LENGTH)
      .optional()
      .describe(
        "Your idempotency key (an order or invoice id): a repeat answers 200 with duplicate:true and the first " +
          "conversion's id. Distinct event ids let one click carry several conversions of a type (renewals).",
      ),
    metadata: z
      .record(z.string(), z.unknown(), { error: "metadata must be a JSON object" })
      .superRefine(allowedJson("metadata"))
      .refine((value) => jsonByteLength(value) <= CONVERSION_METADATA_MAX_BYTES, {
        error: `metadata must be at most ${CONVERSION_METADATA_MAX_BYTES} bytes as UTF-8 JSON`,
      })
      .optional(),
  })
  .superRefine((input, ctx) => {
    if (input.clickId === undefined && input.customerId === undefined)
      ctx.addIssue({ code: "custom", message: CLICK_OR_CUSTOMER_MESSAGE, path: ["clickId"] });
    const problem = moneyIssue(input.value, input.currency);
    if (problem)
      ctx.addIssue({
        code: "custom",
        message: problem,
        path: [input.value === undefined ? "currency" : "value"],
      });
  });
export type RecordConversionInput = z.infer<typeof recordConversionSchema>;

export const sentReceivedSchema = z.object({ sent: z.number().int(), received: z.number().int() });
export type SentReceived = z.infer<typeof sentReceivedSchema>;

export const uncountedClicksQuerySchema = z.object({
  days: daysQuerySchema(UNCOUNTED_DAYS_MIN, UNCOUNTED_DAYS_MAX, UNCOUNTED_DAYS_DEFAULT),
});

const uncountedSideSchema = z.object({
  /** Clicks stored in the window that did not count. */
  total: z.number().int(),
  /** How many for each reason (every reason present, 0 when none). */
  reasons: z.object({
    bot: z.number().int(),
    repeat: z.number().int(),
    burst: z.number().int(),
    source_cap: z.number().int(),
    own_click: z.number().int(),
    blocked: z.number().int(),
    not_live: z.number().int(),
  } satisfies Record<UncountedClickReason, z.ZodNumber>),
});
/**
 * CONTRACT §5: the clicks of the window that did not count, and why; sent on the caller's links,
 * received on partners' links to the caller.
 */
export const uncountedClicksSchema = z.object({
  days: z.number().int(),
  sent: uncountedSideSchema,
  received: uncountedSideSchema,
});
export type UncountedClicks = z.infer<typeof uncountedClicksSchema>;
export type UncountedSide = z.infer<typeof uncountedSideSchema>;

export const shortUrlResponseSchema = z.object({ shortUrl: z.string() });

export const dailyFiguresSchema = z.array(
  z.object({
    day: z.string(),
    clicksSent: z.number().int(),
    clicksReceived: z.number().int(),
    leadsSent: z.number().int(),
    leadsReceived: z.number().int(),
  }),
);
export type DailyFigures = z.infer<typeof dailyFiguresSchema>;

/** Money in major units of one currency (CONTRACT §8): `{currency: "USD", value: 49.99}`. */
export const moneyTotalSchema = z.object({ currency: z.string(), value: z.number() });
export type MoneyTotal = z.infer<typeof moneyTotalSchema>;

/**
 * What the recent-activity list names. A conversion with a value is a sale (its amount named), one
 * without is a lead; a refund or dispute on a sale is listed on its own day, as revenue takes it.
 */
export const ACTIVITY_KINDS = [
  "click_sent",
  "click_received",
  "lead_sent",
  "lead_received",
  "sale_sent",
  "sale_received",
  "refund_sent",
  "refund_received",
  "new_buddy",
] as const;
export const activitySchema = z.array(
  z.object({
    kind: z.enum(ACTIVITY_KINDS),
    at: z.string(),
    /** The other organization: the partner, or the new Buddy. */
    organization: z.object({ id: z.string(), name: z.string() }),
    /** For leads and sales: the conversion type; for refunds: refund, dispute or dispute_won. */
    detail: z.string().nullable(),
    /** For sales and refunds: the amount (a dispute won's, given back, too), else null. */
    amount: moneyTotalSchema.nullable(),
  }),
);
export type Activity = z.infer<typeof activitySchema>;

/**
 * One currency of revenue and its sales: the conversions with a value. A sale refunded in full
 * still counts as a sale (as it stays a lead), its amount taken from `value`; so a currency whose
 * sales were all refunded is listed with `value` 0.
 */
export const revenueTotalSchema = moneyTotalSchema.extend({ sales: z.number().int().nonnegative() });
export type RevenueTotal = z.infer<typeof revenueTotalSchema>;

/** Revenue the caller's clicks earned partners (sent) and partners' clicks earned it (received). */
export const revenueSchema = z.object({
  sent: z.array(revenueTotalSchema),
  received: z.array(revenueTotalSchema),
});
export type Revenue = z.infer<typeof revenueSchema>;

export const revenueQuerySchema = z.object({
  /** One partner only: the revenue of that pair, both ways (the Buddy page). */
  partnerId: text("partnerId", { trim: false }).min(1).max(100).optional(),
});

/** Revenue per day and currency for the overview's chart: only days and currencies with revenue. */
export const dailyRevenueSchema = z.array(
  z.object({ day: z.string(), currency: z.string(), sent: z.number(), received: z.number() }),
);
export type DailyRevenue = z.infer<typeof dailyRevenueSchema>;
