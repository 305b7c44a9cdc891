import type { Server } from "node:http";
import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";
import type { TrustProxy } from "../config";
import { wrapRequestListener } from "./request-listener";

/**
 * TRUST_PROXY as Fastify's `trustProxy`, which decides `request.ip` (every per-client rule reads
 * it), `request.protocol` (X-Forwarded-Proto) and `request.host` (X-Forwarded-Host) alike.
 *
 * - A number of proxies becomes a function of the hop: the socket's peer is hop 0, the right-most
 *   X-Forwarded-For entry hop 1, and so on, so `request.ip` is the entry `hops` from the socket
 *   (the left-most one if the header is shorter). Fastify's own number option trusts no hop at
 *   all (fastify/lib/request.js), which would make every client the balancer; its `true` trusts
 *   every hop, so the left-most entry, which any client writes itself, would count.
 * - A list of addresses and networks goes to @fastify/proxy-addr as it is: `request.ip` is the
 *   right-most entry not in it; X-Forwarded-Proto and -Host count only from a peer in it.
 */
export function fastifyTrustProxy(setting: TrustProxy): FastifyServerOptions["trustProxy"] {
  if (setting === false) return false;
  if ("hops" in setting) {
    const { hops } = setting;
    return (_address: string, hop: number) => hop < hops;
  }
  return [...setting.proxies];
}

/**
 * With TRUST_PROXY off, the first request that carries X-Forwarded-For logs one warning for the
 * process: a proxy in front whose setting was forgotten makes every client the proxy, sharing one
 * set of limits. Checked around the server's request listener (see request-listener.ts), not in a
 * hook: one boolean until then and nothing more after. `app.inject` does not pass through here.
 */
export function warnOfForwardedForWhenUntrusted(server: Server, log: FastifyBaseLogger) {
  let warned = false;
  wrapRequestListener(server, (route) => (request, response) => {
    if (!warned && request.headers["x-forwarded-for"] !== undefined) {
      warned = true;
      log.warn(
        { remoteAddress: request.socket.remoteAddress },
        "A request carries X-Forwarded-For while TRUST_PROXY is off: the header is ignored and the " +
          "client address is the connection's. Behind a proxy or balancer, set TRUST_PROXY " +
          "(docs/operations.md). This is logged once.",
      );
    }
    route(request, response);
  });
}
