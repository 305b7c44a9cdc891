import { adsQuerySchema, adsResponseSchema } from "@shared/ads";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { notFound } from "../../errors";
import { requireApiKey } from "../../plugins/auth";
import { API_TAGS } from "../../plugins/openapi";
import { contentResponse, errorResponse, textBody } from "../../plugins/openapi-responses";
import type { ServedAd } from "./ads.service";
import { ADS_CACHE_CONTROL, adsAnswer } from "./ads-answer";
import { createAdsQueryValidator } from "./ads-query";

export async function adsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/api/ads",
    {
      config: { access: "apiKey", securityHeaders: "api" },
      validatorCompiler: createAdsQueryValidator(),
      schema: {
        tags: [API_TAGS.ads],
        operationId: "getAds",
        summary: "Get partner ads",
        description:
          "Active ads of your active Buddies (complementary relationships), each with a short tracked link. " +
          "Each ad is drawn by first drawing a Buddy with probability proportional to its ad weight for you " +
          "(clamp((clicks it sent you + 10) / (clicks you sent it + 10), 0.25, 4) over 30 days: 1 with no " +
          "history), then one of its ads at random; with `limit` above 1 no Buddy repeats while others remain. " +
          "Never an ad of a company on either side of your block list. `limit` 1–5 (default 1), " +
          "`format` json (default), html (template simple or card: 600 px, banner: 800 px) or text. The " +
          "eligible ads are cached for up to 5 minutes. 404 when you have no active Buddy with active collateral.",
        security: [{ apiKey: [] }],
        querystring: adsQuerySchema,
        // The media type follows `format` (the Accept header is not read).
        response: {
          200: contentResponse("The ads, in the `format` asked: `json` (default), `html` or `text`.", {
            "application/json": adsResponseSchema,
            "text/html": textBody(),
            "text/plain": textBody(),
          }),
          400: errorResponse("A `format`, `limit`, `includeSuggestions` or `template` out of range."),
          401: errorResponse("The API key is missing, unknown or revoked."),
          404: errorResponse("You have no active Buddy (complementary relationship) with active collateral."),
        },
      },
    },
    // Not async: a cached answer is sent within the handler, with no promise to settle after it.
    (request, reply) => {
      const { organizationId } = requireApiKey(request);
      const { format, limit, includeSuggestions, template } = request.query;
      const send = (ads: readonly ServedAd[]) => {
        if (ads.length === 0)
          throw notFound(
            "No ads found: you have no active complementary relationships with active collateral",
          );
        const { type, body } = adsAnswer(ads, { format, template });
        (reply as FastifyReply)
          .header("Cache-Control", ADS_CACHE_CONTROL)
          .type(type)
          .serializer(String)
          .send(body);
      };
      const ads = app.ads.pickAds(organizationId, {
        limit,
        includeSuggestions: includeSuggestions === "true",
      });
      if (Array.isArray(ads)) {
        send(ads);
        return;
      }
      return ads.then(send);
    },
  );
}
