import { text } from "@shared/text";
import {
  CLICK_ID_MAX_LENGTH,
  CONVERSION_TYPES,
  CUSTOMER_ID_MAX_LENGTH,
  EVENT_ID_MAX_LENGTH,
  moneyIssue,
  recordConversionSchema,
} from "@shared/tracking";
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
import { PIXEL_GIF, PIXEL_HEADERS } from "./pixel";

const resultSchema = z.object({ id: z.string(), duplicate: z.boolean() });
const TYPE_MESSAGE = `type is required: one of ${CONVERSION_TYPES.join(", ")}`;

export async function conversionsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const recorder = app.tracker.leads;

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
          "`currency` (ISO 4217, USD by default), with at most the currency's decimals. A `customerId` sent with a " +
          "`clickId` binds that customer to the click (the first binding wins); later conversions with only the " +
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
      const result = await recorder.record({ organizationId, ...request.body });
      return reply.code(result.duplicate ? 200 : 201).send(result);
    },
  );

  // The browser pixel needs no key (SPEC §6, resolved): it proves nothing more than the click id
  // and the organization it names, which must be the click's target.
  r.get(
    "/api/marketing/conversion/:clickId",
    {
      // An image, never a document: the headers that act on a document act on nothing here.
      config: { access: "public", securityHeaders: "minimal" },
      // Every pixel hit is stored or answered from memory; request log lines would double the work.
      logLevel: "warn",
      // A GIF is compressed already: the compression plugin's hooks are not attached at all.
      compress: false,
      schema: {
        tags: [API_TAGS.conversions],
        operationId: "recordConversionPixel",
        summary: "Conversion pixel (browser, no key)",
        description:
          "A 1×1 GIF that records a conversion from the browser, as conversion.js does. It needs no API key " +
          "(a key must never be in a web page): the click id must exist, be under 30 days old and have `org` as " +
          "its target. 400 for a missing or unknown type, 404 otherwise. Each client address records at most " +
          "`PIXEL_RATE_LIMIT_PER_IP` new leads a minute (20 by default); beyond, 429 `{message}` with " +
          "`Retry-After` instead of the GIF.",
        security: [],
        params: z.object({ clickId: text("clickId", { trim: false }).min(1).max(CLICK_ID_MAX_LENGTH) }),
        querystring: z.object({
          type: text("type", { trim: false }).max(32).optional(),
          org: text("org", { trim: false }).max(100).optional(),
          // Text, read as written: money is never parsed through floating point (CONTRACT §8).
          value: text("value").max(32).optional().describe("Money in major units, e.g. 49.99."),
          currency: text("currency").max(8).optional().describe("ISO 4217 code, default USD."),
          customerId: text("customerId")
            .min(1)
            .max(CUSTOMER_ID_MAX_LENGTH)
            .optional()
            .describe("Your id for the customer: binds it to this click (the first binding wins)."),
          eventId: text("eventId")
            .min(1)
            .max(EVENT_ID_MAX_LENGTH)
            .optional()
            .describe("Your idempotency key: a repeat records nothing."),
        }),
        response: {
          200: contentResponse("A 1×1 transparent GIF: the conversion is recorded, or was already.", {
            "image/gif": binaryBody("image/gif"),
          }),
          400: errorResponse("A missing or unknown `type`, or a `value` or `currency` that is not money."),
          404: errorResponse("An unknown or expired click id, or one whose target is not `org`."),
          429: rateLimitedResponse("This client address has recorded its new leads for the minute."),
        },
      },
    },
    async (request, reply) => {
      const { query } = request;
      const type = CONVERSION_TYPES.find((t) => t === query.type);
      if (!type) throw badRequest(TYPE_MESSAGE);
      const moneyProblem = moneyIssue(query.value, query.currency);
      if (moneyProblem) throw badRequest(moneyProblem);
      await recorder.recordPixel(
        {
          organizationId: query.org ?? "",
          clickId: request.params.clickId,
          type,
          value: query.value,
          currency: query.currency,
          customerId: query.customerId,
          eventId: query.eventId,
        },
        request.ip,
      );
      return reply.headers(PIXEL_HEADERS).send(PIXEL_GIF);
    },
  );
}
