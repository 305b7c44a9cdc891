import { recordRefundSchema, refundResultSchema } from "@shared/refunds";
import { text } from "@shared/text";
import { CLICK_ID_MAX_LENGTH, CONVERSION_TYPES, recordConversionSchema } from "@shared/tracking";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { badRequest } from "../../../errors";
import { requireApiKey } from "../../../plugins/auth";
import { API_TAGS } from "../../../plugins/openapi";
import {
  binaryBody,
  contentResponse,
  errorResponse,
  rateLimitedResponse,
} from "../../../plugins/openapi-responses";
import { carriesKeyedOnlyField, PIXEL_GIF, PIXEL_HEADERS, PIXEL_LEADS_ONLY_MESSAGE } from "./pixel";
import { recordRefund } from "./refunds.service";

const resultSchema = z.object({ id: z.string(), duplicate: z.boolean() });
const TYPE_MESSAGE = `type is required: one of ${CONVERSION_TYPES.join(", ")}`;

export async function conversionsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const recorder = app.tracker.conversions;

  // Server to server: the key of the organization that received the click (CONTRACT §5).
  r.post(
    "/api/marketing/conversion",
    {
      config: { access: "apiKey", securityHeaders: "api" },
      schema: {
        tags: [API_TAGS.conversions],
        operationId: "recordConversion",
        summary: "Record a conversion (server to server)",
        description:
          "Records a conversion for a click id (the bclickid your landing page received) or a customer. Needs the " +
          "API key of the organization that received the click. `value` is money in major units (49.99) of " +
          "`currency` (ISO 4217, USD by default), with at most the currency's decimals. Money, event ids and " +
          "customer ids come only through this call or your Stripe, never the keyless pixel. A `customerId` sent " +
          "with a `clickId` binds that customer to the click (the first binding wins, except that one your Stripe " +
          "made yields to one sent with your key); later conversions with only the " +
          "`customerId` are attributed to that click for 365 days (404 for a customer you never bound). `eventId` " +
          "is your idempotency key: a repeat answers 200 with duplicate:true and the first conversion's id. " +
          "Without it, one conversion per click id and type: a repeat answers 200 with duplicate:true. With " +
          "distinct event ids, one click may carry several conversions of a type (renewals). Click ids expire " +
          "after 30 days.",
        security: [{ apiKey: [] }],
        body: recordConversionSchema,
        response: {
          200: resultSchema.meta({
            description:
              "A duplicate (`duplicate: true`): the first conversion's `id`; nothing new is recorded.",
          }),
          201: resultSchema.meta({ description: "Recorded (`duplicate: false`)." }),
          400: errorResponse(
            "Neither `clickId` nor `customerId`, an unknown `type`, or a `value` or `currency` that is not money.",
          ),
          401: errorResponse("The API key is missing, unknown or revoked."),
          404: errorResponse(
            "An unknown or expired click id, one your organization did not receive, or a customer it never bound.",
          ),
        },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireApiKey(request);
      const result = await recorder.record({ organizationId, ...request.body, channel: "key" });
      return reply.code(result.duplicate ? 200 : 201).send(result);
    },
  );

  // CONTRACT §8: the advertiser takes back all or part of a conversion it received.
  r.post(
    "/api/marketing/refunds",
    {
      config: { access: "apiKey", securityHeaders: "api" },
      schema: {
        tags: [API_TAGS.conversions],
        operationId: "recordRefund",
        summary: "Refund a conversion (server to server)",
        description:
          "Takes back all or part of a conversion your organization received: name it by `conversionId` (the id " +
          "the conversion call answered) or by the `eventId` you recorded it with, exactly one of the two. " +
          "`value` is in major units of the conversion's currency (at most its decimals), more than 0 and at most " +
          "what remains of it; without `value`, all that remains. `refundId` is your idempotency key: a repeat " +
          "answers 200 with duplicate:true and the first refund, and takes nothing more back. Every revenue " +
          "figure (metrics, the daily series, the partners' ledger, the overview) is net of refunds, the refund " +
          "taken from the revenue of the UTC day it was recorded on; the conversion still counts as a lead. Both " +
          "companies get a `conversion.refunded` webhook. Refunds and disputes of payments made through your " +
          "connected Stripe are recorded from Stripe's events without this call.",
        security: [{ apiKey: [] }],
        body: recordRefundSchema,
        response: {
          200: refundResultSchema.meta({
            description:
              "A repeated `refundId` (`duplicate: true`): the first refund; nothing more is taken back.",
          }),
          201: refundResultSchema.meta({ description: "Recorded (`duplicate: false`)." }),
          400: errorResponse(
            "Not exactly one of `conversionId` and `eventId`, a missing `refundId`, a `value` that is not money " +
              "of the conversion's currency or not more than 0, more than what remains, or a conversion without " +
              "a value: nothing is recorded.",
          ),
          401: errorResponse("The API key is missing, unknown or revoked."),
          404: errorResponse("An unknown conversion, or one your organization did not receive."),
        },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireApiKey(request);
      const { conversionId, eventId, refundId, value } = request.body;
      const result = await recordRefund(app.db, {
        organizationId,
        target: conversionId !== undefined ? { conversionId } : { eventId: eventId ?? "" },
        refundId,
        kind: "refund",
        amount: value === undefined ? { remaining: true } : { major: value },
        channel: "key",
      });
      if (result.outcome === "nothing") throw new Error(`a refund by key recorded nothing: ${result.reason}`);
      if (result.outcome === "recorded") app.outbox.wake();
      return reply.code(result.outcome === "duplicate" ? 200 : 201).send(result.refund);
    },
  );

  // The browser pixel needs no key (SPEC §6, resolved): it proves nothing more than the click id
  // and the organization it names, which must be the click's target. So it records leads only
  // (CONTRACT §5): what carries money or identity needs the key.
  r.get(
    "/api/marketing/conversion/:clickId",
    {
      // An image, never a document: the headers that act on a document act on nothing here.
      config: { access: "public", securityHeaders: "minimal" },
      // Every pixel hit is stored or answered from memory; request log lines would double the work.
      logLevel: "warn",
      // A GIF is compressed already: the compression plugin's hooks are not attached at all.
      compress: false,
      // A browser loads the pixel with GET. A HEAD is what link checkers and scanners send: it
      // must not record a lead, so there is no HEAD route (404).
      exposeHeadRoute: false,
      // Before the schema, which does not know these fields and would drop them unread: any of
      // them, valid or not, even empty, refuses the call rather than recording a bare lead.
      preValidation: async (request) => {
        if (carriesKeyedOnlyField(request.query)) throw badRequest(PIXEL_LEADS_ONLY_MESSAGE);
      },
      schema: {
        tags: [API_TAGS.conversions],
        operationId: "recordConversionPixel",
        summary: "Conversion pixel (browser, no key)",
        description:
          "A 1×1 GIF that records a lead from the browser, as conversion.js does. It needs no API key " +
          "(a key must never be in a web page): the click id must exist, be under 30 days old and have `org` as " +
          "its target. 400 for a missing or unknown type, 404 otherwise. It records leads only: a call with " +
          "`value`, `currency`, `eventId` or `customerId` in its query (even empty) is refused with 400 and " +
          "records nothing. Money, idempotency keys and customer bindings come only with your API key " +
          "(`POST /api/marketing/conversion`) or from your Stripe. Each client address records at most " +
          "`PIXEL_RATE_LIMIT_PER_IP` new leads a minute (20 by default); beyond, 429 `{message}` with " +
          "`Retry-After` instead of the GIF.",
        security: [],
        params: z.object({ clickId: text("clickId", { trim: false }).min(1).max(CLICK_ID_MAX_LENGTH) }),
        querystring: z.object({
          type: text("type", { trim: false })
            .max(32)
            .optional()
            .describe(`The conversion type: one of ${CONVERSION_TYPES.join(", ")}.`),
          org: text("org", { trim: false })
            .max(100)
            .optional()
            .describe("Your organization id: the click's target."),
        }),
        response: {
          200: contentResponse("A 1×1 transparent GIF: the lead is recorded, or was already.", {
            "image/gif": binaryBody("image/gif"),
          }),
          400: errorResponse(
            "A missing or unknown `type`, or a `value`, `currency`, `eventId` or `customerId`, which only " +
              "`POST /api/marketing/conversion` takes: nothing is recorded.",
          ),
          404: errorResponse("An unknown or expired click id, or one whose target is not `org`."),
          429: rateLimitedResponse("This client address has recorded its new leads for the minute."),
        },
      },
    },
    async (request, reply) => {
      const { query } = request;
      const type = CONVERSION_TYPES.find((t) => t === query.type);
      if (!type) throw badRequest(TYPE_MESSAGE);
      await recorder.recordPixel(
        { organizationId: query.org ?? "", clickId: request.params.clickId, type },
        request.ip,
      );
      return reply.headers(PIXEL_HEADERS).send(PIXEL_GIF);
    },
  );
}
