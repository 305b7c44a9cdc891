import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/** Server paths that are no page: the metrics live on METRICS_PORT only, never on this port. */
const NOT_PAGES = new Set(["/metrics"]);

/** Pages built with an entry of their own (vite.auth.config.ts); every other page is index.html. */
const OWN_PAGES: Readonly<Record<string, string>> = { "/auth": "auth.html" };

/** Vite's output names: `/assets/name-HASH.ext`, the hash changing with the content. */
const HASHED_ASSET = /^\/assets\/[^/]+-[\w-]{8,}\.\w+$/;

/**
 * `immutable` spares the revalidation a reload would make: the URL names one content for good.
 * Other files keep their name across releases (favicon.svg): an hour, then revalidated by ETag.
 */
export const CACHE_CONTROL = {
  hashed: "public, max-age=31536000, immutable",
  page: "no-cache",
  other: "public, max-age=3600",
} as const;

/**
 * Serves the built SPA from one public route: hashed assets cached for good, index.html always
 * revalidated (it names the current assets), and index.html for any other GET outside /api so
 * client routes load on refresh.
 *
 * The build writes a Brotli and a gzip copy beside each text file (vite.config.ts), at levels too
 * slow for each request; `preCompressed` sends the one the client accepts (br, then gzip), the file
 * itself otherwise, always with `Vary: Accept-Encoding`. So the route opts out of on-the-fly
 * compression: what was not compressed at build time did not gain from it.
 */
export async function registerWeb(app: FastifyInstance, webRoot: string) {
  const indexFile = path.join(webRoot, "index.html");
  if (!existsSync(indexFile)) {
    app.log.warn({ webRoot }, "web app not built: serving the API only");
    return;
  }
  const pages = new Set(Object.values(OWN_PAGES).filter((page) => existsSync(path.join(webRoot, page))));
  // serve:false: only reply.sendFile, which confines paths to webRoot (no traversal).
  await app.register(fastifyStatic, { root: webRoot, serve: false, index: false, preCompressed: true });

  app.route({
    method: ["GET", "HEAD"],
    url: "/*",
    config: { access: "public" },
    compress: false,
    handler: async (request, reply) => {
      const pathname = decodeURIComponent((request.url.split("?")[0] ?? "/").replace(/\/+$/, "")) || "/";
      if (pathname === "/api" || pathname.startsWith("/api/") || NOT_PAGES.has(pathname)) {
        return reply.code(404).send({ message: `Route ${request.method} ${pathname} not found` });
      }
      if (path.extname(pathname) && !pathname.endsWith(".html")) {
        const file = path.join(webRoot, path.normalize(pathname));
        if (!file.startsWith(webRoot + path.sep) || !existsSync(file)) {
          return reply.code(404).send({ message: "Not found" });
        }
        reply.header(
          "Cache-Control",
          HASHED_ASSET.test(pathname) ? CACHE_CONTROL.hashed : CACHE_CONTROL.other,
        );
        return reply.sendFile(pathname.slice(1), { cacheControl: false });
      }
      // A page names the current assets: always revalidated.
      reply.header("Cache-Control", CACHE_CONTROL.page);
      const own = OWN_PAGES[pathname] ?? pathname.slice(1);
      const page = pages.has(own) ? own : "index.html";
      return reply.sendFile(page, { cacheControl: false });
    },
  });
}
