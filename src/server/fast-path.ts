import type { IncomingMessage, ServerResponse } from "node:http";
import proxyAddr from "@fastify/proxy-addr";

/**
 * A hot public route answered on the HTTP server before Fastify's routing, hooks and reply
 * (app.ts). It takes the request (true) only when it can answer it as the route would, and calls
 * `fallback` to hand over one it took but may not answer after all; everything else — refusals,
 * errors, a server closing — goes to the Fastify route, which answers it in full.
 */
export type FastPath = (request: IncomingMessage, response: ServerResponse, fallback: () => void) => boolean;

export type FastPathDeps = {
  /** The security headers of the route (plugins/security-headers.ts). */
  headers: Record<string, string>;
  /** As Fastify's `trustProxy`: the client is then the first address of X-Forwarded-For. */
  trustProxy: boolean;
  /** True once the server is closing: Fastify then answers 503, so the request goes there. */
  closing: () => boolean;
  log: { error(object: object, message: string): void };
};

const trustAll = () => true;

/** The client's address as Fastify's `request.ip` reads it. */
export function clientAddress(deps: Pick<FastPathDeps, "trustProxy">, request: IncomingMessage): string {
  return (deps.trustProxy ? proxyAddr(request, trustAll) : request.socket.remoteAddress) ?? "";
}

/**
 * Every answer of a fast path shares one object shape, copied from a template made once: a
 * literal that spreads the security headers and adds to them takes V8's slow path per request.
 */
export function headerTemplate<T extends Record<string, string>>(
  security: Record<string, string>,
  own: T,
): () => Record<string, string> & T {
  const template = { ...security, ...own };
  return () => ({ ...template });
}

/** What the error handler answers for an unexpected failure (plugins/errors.ts). */
export function answerFailure(deps: FastPathDeps, response: ServerResponse, error: unknown, url: string) {
  deps.log.error({ err: error, url }, "fast path failed");
  if (response.headersSent) return response.destroy();
  response.writeHead(500, { ...deps.headers, "content-type": "application/json; charset=utf-8" });
  response.end('{"message":"Internal Server Error"}');
}
