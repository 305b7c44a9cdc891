import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { API_TAGS } from "../../../plugins/openapi";
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
      summary: file === "click.js" ? "Click-tracking script" : "Conversion-tracking script",
      description:
        file === "click.js"
          ? 'Put on every landing page: <script src="…/api/tracking/click.js" data-org="ORG_ID" async>. Keeps bclickid for 30 days.'
          : 'Put on conversion pages: <script src="…/api/tracking/conversion.js" data-org="ORG_ID" data-type="signup" async>; also window.buddy.conversion(type, value?).',
      security: [],
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
