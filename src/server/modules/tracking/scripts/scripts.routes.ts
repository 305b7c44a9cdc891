import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { API_TAGS } from "../../../plugins/openapi";
import { contentResponse, emptyResponse, textBody } from "../../../plugins/openapi-responses";
import { CLICK_SCRIPT } from "./click-script";
import { CONVERSION_SCRIPT } from "./conversion-script";

const SCRIPTS = { "click.js": CLICK_SCRIPT, "conversion.js": CONVERSION_SCRIPT } as const;

/**
 * The install scripts (CONTRACT §5). Cacheable for a day (they are on every landing page) and
 * revalidated by ETag; embeddable from any origin.
 */
export async function scriptsRoutes(app: FastifyInstance) {
  for (const [file, source] of Object.entries(SCRIPTS)) {
    const etag = `"${createHash("sha256").update(source).digest("base64url").slice(0, 16)}"`;
    const schema = {
      tags: [API_TAGS.conversions],
      operationId: file === "click.js" ? "getClickScript" : "getConversionScript",
      summary: file === "click.js" ? "Click-tracking script" : "Conversion-tracking script",
      // No markup: a docs page renders descriptions, and Settings → Install has the tag to copy.
      description:
        file === "click.js"
          ? "Load it on every landing page from a script element with `data-org` (your organization id) and " +
            "`async`. Keeps `bclickid` for 30 days."
          : "Load it on conversion pages from a script element with `data-org` (your organization id), " +
            "`data-type` (the conversion type) and `async`; it also offers `window.buddy.conversion(type)`. " +
            "It records leads only, through the pixel: a value passed to it is not sent (one console warning). " +
            "Send money, event ids and customer ids from your server with `POST /api/marketing/conversion`.",
      security: [],
      response: {
        200: contentResponse("The script; cacheable for a day, revalidated by its `ETag`.", {
          "application/javascript": textBody(),
        }),
        304: emptyResponse("Not modified: the `If-None-Match` sent is the script's `ETag`."),
      },
    };
    app.get(`/api/tracking/${file}`, { config: { access: "public" }, schema }, async (request, reply) => {
      reply.header("Cache-Control", "public, max-age=86400, stale-while-revalidate=604800");
      reply.header("ETag", etag);
      reply.header("Cross-Origin-Resource-Policy", "cross-origin");
      reply.header("Access-Control-Allow-Origin", "*");
      if (request.headers["if-none-match"] === etag) return reply.code(304).send();
      return reply.type("application/javascript; charset=utf-8").send(source);
    });
  }
}
