import {
  answerFailure,
  clientAddress,
  type FastPath,
  type FastPathDeps,
  headerTemplate,
} from "../../fast-path";
import type { Tracker } from "./tracking.service";

/** Codes as short-links.service.ts makes them (base64url); anything else is the route's to refuse. */
const SHORT_PATH = /^\/s\/([A-Za-z0-9_-]{1,32})$/;

/**
 * Short links answer every click of every e-mail, tens of thousands a second. A GET or HEAD of
 * `/s/<code>` whose link is already in memory is answered here (fast-path.ts): the same click
 * recorded the same way (journaled before the 302, tracking.service.ts), the same headers. A code
 * seen for the first time or a link the tracker refuses goes to Fastify's `/s/:code` route, which
 * answers it in full (it records nothing the fast path did not).
 */
export function createShortLinkFastPath(deps: FastPathDeps & { tracker: Tracker }): FastPath {
  const headers = headerTemplate(deps.headers, {
    "cache-control": "no-store",
    "content-length": "0",
    location: "",
  });
  return (request, response, fallback) => {
    const url = request.url;
    if (!url?.startsWith("/s/") || (request.method !== "GET" && request.method !== "HEAD")) return false;
    const code = SHORT_PATH.exec(url)?.[1];
    const link = code ? deps.tracker.peekShortCode(code) : undefined;
    if (!code || !link || deps.closing()) return false;

    const hit = {
      method: request.method,
      ip: clientAddress(deps, request),
      userAgent: request.headers["user-agent"] ?? "",
      referer: request.headers.referer,
    };
    deps.tracker.follow(link, hit, code).then(
      (location) => {
        if (!location) return fallback();
        const answer = headers();
        answer.location = location;
        response.writeHead(302, answer);
        response.end();
      },
      (error: unknown) => answerFailure(deps, response, error, url),
    );
    return true;
  };
}
