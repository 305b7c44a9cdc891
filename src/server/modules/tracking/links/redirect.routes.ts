import { errorBodySchema } from "@shared/http";
import { text } from "@shared/text";
import { shortUrlResponseSchema } from "@shared/tracking";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireMember } from "../../../plugins/auth";
import { API_TAGS } from "../../../plugins/openapi";
import { errorResponse, redirectResponse } from "../../../plugins/openapi-responses";
import { type TrackedLink, verifyTrackedLink } from "./link-signature";
import { shortenTrackedLink } from "./short-links.service";

const INVALID_LINK = "This tracked link is not valid";
export const SHORT_LINK_NOT_FOUND = "Short link not found";
/** Everything under it is a short link or nothing: never a page of the web app (CONTRACT §5). */
export const SHORT_LINK_PREFIX = "/s/";
const NOT_A_TRACKED_LINK = "longUrl must be a tracked link of this platform";

/**
 * Every hit is stored as a click event: two request log lines each would double the work. A 302
 * has no body to compress, so the compression plugin's hooks are not attached at all.
 */
const followed = {
  config: { access: "public", securityHeaders: "minimal" },
  logLevel: "warn",
  compress: false,
} as const;

export async function redirectRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    link: TrackedLink,
    code: string | null,
  ) {
    const location = await app.tracker.follow(
      link,
      {
        method: request.method,
        ip: request.ip,
        userAgent: request.headers["user-agent"] ?? "",
        referer: request.headers.referer,
        log: request.log,
      },
      code,
    );
    if (!location) return reply.code(400).send({ message: INVALID_LINK });
    // Each hit is a new click: never cached. (No referrer: see the route's security headers.)
    reply.header("Cache-Control", "no-store");
    return reply.redirect(location, 302);
  }

  r.get(
    "/api/marketing/redirect",
    {
      ...followed,
      schema: {
        tags: [API_TAGS.conversions],
        operationId: "followTrackedLink",
        summary: "Follow a tracked link",
        description:
          "Records the click and redirects (302) to `url` with `bclickid` added. A hit that is not a person's " +
          "(a bot user agent, a HEAD, a mail scanner, a burst of one sender's links) is recorded but lands " +
          "without `bclickid`: it can record no lead. The link must carry its `sig`; a missing or wrong " +
          "signature, or a url off the ad's host, answers 400 and records nothing. A link of a draft, of an ad " +
          "whose author's domain is not proven, or between two organizations either of which now blocks the " +
          "other, redirects without `bclickid` and records nothing.",
        security: [],
        response: {
          302: redirectResponse(
            "To the ad's page. The hit is stored as a click, counted only when it is a person's.",
            "`url`, with `bclickid` added to its query for a person's hit.",
          ),
          400: errorResponse(
            "A missing or wrong `sig`, a `url` off the ad's host, or an ad that is gone: nothing is recorded.",
          ),
        },
      },
    },
    async (request, reply) => {
      const link = verifyTrackedLink(app.config.appSecret ?? "", request.query as Record<string, unknown>);
      if (!link) return reply.code(400).send({ message: INVALID_LINK });
      return answer(request, reply, link, null);
    },
  );

  r.get(
    "/s/:code",
    {
      ...followed,
      schema: {
        tags: [API_TAGS.conversions],
        operationId: "followShortLink",
        summary: "Follow a short link",
        description:
          "The short form of a tracked link: records the click and redirects (302) in one hop, with `bclickid` " +
          "for a person's hit only, as the tracked link does.",
        security: [],
        // CONTRACT §5: any code that is not one, of any length and any characters, is not found
        // (404), never refused as input (400). The resolver looks up only the shape codes have.
        params: z.object({ code: z.string().describe("The short link's code.") }),
        response: {
          302: redirectResponse(
            "To the ad's page, the hit stored as for the tracked link.",
            "The ad's call to action, with `bclickid` added to its query for a person's hit.",
          ),
          400: errorResponse(
            "The ad behind the link is gone or no longer on its company's site: nothing is recorded.",
          ),
          404: errorResponse("No short link has this code."),
        },
      },
    },
    async (request, reply) => {
      const link = await app.tracker.resolveShortCode(request.params.code);
      if (!link) return reply.code(404).send({ message: SHORT_LINK_NOT_FOUND });
      return answer(request, reply, link, link.code);
    },
  );

  // What the route above cannot take is no short link either: more than one segment (`/s/a/b`,
  // `/s/a/`) or a code longer than the router's longest parameter (it falls through to here). The
  // same 404, so the web app's catch-all page never answers under /s/. A path that does not decode
  // at all never reaches a route: app.ts answers it alike (notFoundUnder).
  app.get(`${SHORT_LINK_PREFIX}*`, { ...followed, schema: { hide: true } }, async (_request, reply) =>
    reply.code(404).send({ message: SHORT_LINK_NOT_FOUND }),
  );

  // CONTRACT §5: anything but this platform's own tracked link is a 400 {message}.
  r.post(
    "/api/short-url",
    {
      config: { access: "member" },
      schema: {
        body: z.object({
          longUrl: text("longUrl", { error: NOT_A_TRACKED_LINK, trim: false }).max(4096, {
            error: NOT_A_TRACKED_LINK,
          }),
        }),
        response: {
          201: shortUrlResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      requireMember(request);
      const code = await shortenTrackedLink(app.db, {
        publicUrl: app.config.publicUrl,
        secret: app.config.appSecret ?? "",
        longUrl: request.body.longUrl,
        onlyLive: true,
      });
      return reply.code(201).send({ shortUrl: `${app.config.publicUrl}/s/${code}` });
    },
  );
}
