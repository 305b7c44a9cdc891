import type { IncomingMessage, ServerResponse } from "node:http";
import proxyAddr from "@fastify/proxy-addr";
import type { Tracker } from "./tracking.service";

/** Codes as short-links.service.ts makes them (base64url); anything else is the route's to refuse. */
const SHORT_PATH = /^\/s\/([A-Za-z0-9_-]{1,32})$/;
const trustAll = () => true;

export type FastPathDeps = {
  tracker: Tracker;
  /** The headers of a bodiless redirect (plugins/security-headers.ts). */
  headers: Record<string, string>;
  /** As Fastify's `trustProxy`: the client is then the first address of X-Forwarded-For. */
  trustProxy: boolean;
  /** True once the server is closing: Fastify then answers 503, so the request goes there. */
  closing: () => boolean;
  log: { error(object: object, message: string): void };
};

/**
 * Short links answer every click of every e-mail, tens of thousands a second. A GET or HEAD of
 * `/s/<code>` whose link is already in memory is answered here, on the HTTP server, before
 * Fastify's routing, hooks and reply: the same click recorded the same way (journaled before the
 * 302, tracking.service.ts), the same headers. Everything else — a code seen for the first time, a
 * link the tracker refuses, a server closing — goes to Fastify's `/s/:code` route, which answers
 * it in full (it records nothing the fast path did not). Returns whether it took the request.
 */
export function createShortLinkFastPath(deps: FastPathDeps) {
  // Every redirect's headers share one object shape, copied from this template: a literal that
  // spreads the security headers and adds to them goes through V8's slow path on each request.
  const template = { ...deps.headers, "cache-control": "no-store", "content-length": "0", location: "" };
  return (request: IncomingMessage, response: ServerResponse, fallback: () => void): boolean => {
    const url = request.url;
    if (!url?.startsWith("/s/") || (request.method !== "GET" && request.method !== "HEAD")) return false;
    const code = SHORT_PATH.exec(url)?.[1];
    const link = code ? deps.tracker.peekShortCode(code) : undefined;
    if (!code || !link || deps.closing()) return false;

    const hit = {
      method: request.method,
      ip: (deps.trustProxy ? proxyAddr(request, trustAll) : request.socket.remoteAddress) ?? "",
      userAgent: request.headers["user-agent"] ?? "",
      referer: request.headers.referer,
    };
    deps.tracker.follow(link, hit, code).then(
      (location) => {
        if (!location) return fallback();
        const headers = { ...template };
        headers.location = location;
        response.writeHead(302, headers);
        response.end();
      },
      (error: unknown) => {
        deps.log.error({ err: error, url }, "short link failed");
        if (response.headersSent) return response.destroy();
        response.writeHead(500, { ...deps.headers, "content-type": "application/json; charset=utf-8" });
        response.end('{"message":"Internal Server Error"}');
      },
    );
    return true;
  };
}

export type ShortLinkFastPath = ReturnType<typeof createShortLinkFastPath>;
