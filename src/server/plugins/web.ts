import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/** Server paths that are no page: the metrics live on METRICS_PORT only, never on this port. */
const NOT_PAGES = new Set(["/metrics"]);

/**
 * Serves the built SPA from one public route: hashed assets cached for a year, index.html never
 * cached, and index.html for any other GET outside /api so client routes load on refresh.
 */
export async function registerWeb(app: FastifyInstance, webRoot: string) {
  const indexFile = path.join(webRoot, "index.html");
  if (!existsSync(indexFile)) {
    app.log.warn({ webRoot }, "web app not built: serving the API only");
    return;
  }
  // serve:false: only reply.sendFile, which confines paths to webRoot (no traversal).
  await app.register(fastifyStatic, { root: webRoot, serve: false, index: false });

  app.route({
    method: ["GET", "HEAD"],
    url: "/*",
    config: { access: "public" },
    handler: async (request, reply) => {
      const pathname = decodeURIComponent((request.url.split("?")[0] ?? "/").replace(/\/+$/, "")) || "/";
      if (pathname === "/api" || pathname.startsWith("/api/") || NOT_PAGES.has(pathname)) {
        return reply.code(404).send({ message: `Route ${request.method} ${pathname} not found` });
      }
      if (path.extname(pathname) && pathname !== "/index.html") {
        const file = path.join(webRoot, path.normalize(pathname));
        if (!file.startsWith(webRoot + path.sep) || !existsSync(file)) {
          return reply.code(404).send({ message: "Not found" });
        }
        // Hashed file names change with their content, so they can be cached for good.
        const immutable = pathname.startsWith("/assets/");
        return reply.sendFile(pathname.slice(1), {
          maxAge: immutable ? 31_536_000_000 : 0,
          immutable,
          cacheControl: true,
        });
      }
      reply.header("Cache-Control", "no-cache");
      return reply.sendFile("index.html", { cacheControl: false });
    },
  });
}
