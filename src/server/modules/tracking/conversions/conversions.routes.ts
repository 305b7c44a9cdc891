import { errorBodySchema } from "@shared/http";
import { text } from "@shared/text";
import { CLICK_ID_MAX_LENGTH, CONVERSION_TYPES, recordConversionSchema } from "@shared/tracking";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { badRequest } from "../../../errors";
import { requireApiKey } from "../../../plugins/auth";
import { API_TAGS } from "../../../plugins/openapi";
import { PIXEL_GIF, PIXEL_HEADERS, PIXEL_MAX_VALUE } from "./pixel";

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
        summary: "Record a conversion (server to server)",
        description:
          "Records a lead for a click id (the bclickid your landing page received). Needs the API key of the " +
          "organization that received the click. One conversion per click id and type: a repeat answers 200 " +
          "with duplicate:true. Click ids expire after 30 days.",
        security: [{ apiKey: [] }],
        body: recordConversionSchema,
        response: {
          200: resultSchema,
          201: resultSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
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
          value: z.coerce
            .number({ error: "value must be a number" })
            .finite()
            .min(0)
            .max(PIXEL_MAX_VALUE)
            .optional(),
        }),
      },
    },
    async (request, reply) => {
      const type = CONVERSION_TYPES.find((t) => t === request.query.type);
      if (!type) throw badRequest(TYPE_MESSAGE);
      await recorder.recordPixel(
        {
          organizationId: request.query.org ?? "",
          clickId: request.params.clickId,
          type,
          value: request.query.value,
        },
        request.ip,
      );
      return reply.headers(PIXEL_HEADERS).send(PIXEL_GIF);
    },
  );
}
