import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Registry } from "prom-client";

/**
 * Prometheus's scrape target, on a listener of its own (METRICS_PORT): the public port never
 * shows it, and an operator can keep this one on a private network.
 */
export async function listenForMetrics(options: {
  registry: Registry;
  host: string;
  port: number;
  log: FastifyBaseLogger;
}): Promise<FastifyInstance> {
  const server = Fastify({ loggerInstance: options.log.child({ listener: "metrics" }) });
  // Scraped every few seconds: no request log lines.
  server.get("/metrics", { logLevel: "warn" }, async (_request, reply) => {
    reply.header("Cache-Control", "no-store").type(options.registry.contentType);
    return options.registry.metrics();
  });
  await server.listen({ host: options.host, port: options.port });
  return server;
}
