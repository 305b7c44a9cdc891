import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { CLICK_SCRIPT } from "./scripts/click-script";
import { CONVERSION_SCRIPT } from "./scripts/conversion-script";

const SCRIPTS = { "click.js": CLICK_SCRIPT, "conversion.js": CONVERSION_SCRIPT } as const;

/**
 * The install scripts (CONTRACT §5). Cacheable for a day (they are on every landing page) and
 * revalidated by ETag; embeddable from any origin.
 */
export async function scriptsRoutes(app: FastifyInstance) {
  for (const [file, source] of Object.entries(SCRIPTS)) {
    const etag = `"${createHash("sha256").update(source).digest("base64url").slice(0, 16)}"`;
    app.get(`/api/tracking/${file}`, { config: { access: "public" } }, async (request, reply) => {
      reply.header("Cache-Control", "public, max-age=86400, stale-while-revalidate=604800");
      reply.header("ETag", etag);
      reply.header("Cross-Origin-Resource-Policy", "cross-origin");
      reply.header("Access-Control-Allow-Origin", "*");
      if (request.headers["if-none-match"] === etag) return reply.code(304).send();
      return reply.type("application/javascript; charset=utf-8").send(source);
    });
  }
}
