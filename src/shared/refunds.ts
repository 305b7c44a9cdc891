import { z } from "zod";
import { text } from "./text";
import { EVENT_ID_MAX_LENGTH } from "./tracking";

/** CONTRACT §8: a refund's id, the organization's idempotency key for it. */
export const REFUND_ID_MAX_LENGTH = 128;

export const REFUND_MESSAGES = {
  target: "Send exactly one of conversionId or eventId",
  notFound: "Conversion not found",
  noValue: "This conversion has no value to refund",
  nothingLeft: "This conversion has been refunded in full already",
  positive: "value must be greater than 0",
  tooMuch: (remaining: string, currency: string) =>
    `value is more than what remains of this conversion (${remaining} ${currency})`,
} as const;

/**
 * `POST /api/marketing/refunds` (CONTRACT §8): all (no `value`) or part of a conversion the
 * caller's organization received. `value` is in major units of the conversion's currency, whose
 * decimals the service checks once it has found the conversion.
 */
export const recordRefundSchema = z
  .object({
    conversionId: text("conversionId")
      .min(1, { error: "conversionId must not be empty" })
      .max(128)
      .optional()
      .describe("The conversion's id, as `POST /api/marketing/conversion` answered it."),
    eventId: text("eventId")
      .min(1, { error: "eventId must not be empty" })
      .max(EVENT_ID_MAX_LENGTH)
      .optional()
      .describe("Instead of conversionId: the eventId the conversion was recorded with."),
    refundId: text("refundId", { error: "refundId is required" })
      .min(1, { error: "refundId must not be empty" })
      .max(REFUND_ID_MAX_LENGTH)
      .describe(
        "Your id for this refund (a credit note, a ticket): a repeat answers 200 with duplicate:true and the " +
          "first refund, and takes nothing more back.",
      ),
    value: z
      .number({ error: "value must be a number" })
      .optional()
      .describe(
        "What is taken back, in major units of the conversion's currency (at most its decimals), more than 0 " +
          "and at most what remains. Omitted: all that remains.",
      ),
  })
  .superRefine((input, ctx) => {
    if ((input.conversionId === undefined) === (input.eventId === undefined))
      ctx.addIssue({ code: "custom", message: REFUND_MESSAGES.target, path: ["conversionId"] });
    if (input.value !== undefined && !(input.value > 0))
      ctx.addIssue({ code: "custom", message: REFUND_MESSAGES.positive, path: ["value"] });
  });
export type RecordRefundInput = z.infer<typeof recordRefundSchema>;

export const refundResultSchema = z.object({
  id: z.string().describe("The refund's id."),
  conversionId: z.string().describe("The conversion it refunds."),
  value: z.number().describe("What this refund took back, in major units."),
  currency: z.string().describe("The conversion's currency (ISO 4217)."),
  duplicate: z.boolean().describe("true: the refundId was sent before; this is the first refund, unchanged."),
});
export type RefundResult = z.infer<typeof refundResultSchema>;
