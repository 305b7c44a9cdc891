import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet from "helmet";

/**
 * Strict defaults for the SPA and the API: scripts only from this origin, no framing,
 * no referrer leaking tokens in query strings to other sites.
 */
const policy = helmet({
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      // No 'unsafe-eval': the web app's zod runs jitless, so it never tries (src/web/lib/zod.ts).
      // 'wasm-unsafe-eval' lets WebAssembly compile (libsodium, on the account overlap screens)
      // and nothing else: no string is ever evaluated as script.
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      // Radix and sonner set inline style attributes.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "https:", "http:"],
      connectSrc: ["'self'"],
      fontSrc: ["'self'", "data:"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  crossOriginEmbedderPolicy: false,
  // Tracking scripts, the pixel and logos set cross-origin themselves: other sites embed them.
  crossOriginResourcePolicy: { policy: "same-site" },
});

/**
 * helmet's headers do not depend on the request (no nonces), so they are computed once by
 * running its middleware against a recording response, instead of rebuilding the policy
 * strings on every answer — the tracking redirects answer tens of thousands of times a second.
 */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  policy({} as IncomingMessage, recorder as unknown as ServerResponse, () => {
    finished = true;
  });
  if (!finished) throw new Error("helmet did not set its headers synchronously");
  return headers;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * "minimal": the route's answers are never rendered as a document (redirects, the pixel);
     * "api": the public API, answering programs that send a key (see below).
     */
    securityHeaders?: "minimal" | "api";
  }
}

/**
 * A bodiless redirect or the tracking pixel's GIF is never rendered as a document, so the headers
 * that govern a document (CSP, framing, XSS filter, COOP, origin-agent-cluster, download options)
 * act on nothing there. It keeps the ones that act on the answer itself: HSTS, no referrer passed
 * on, no sniffing (a GIF is never taken for HTML). These routes answer every click and lead of
 * every e-mail, and those bytes cost both sides on each one.
 */
export function minimalSecurityHeaders(all: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
  };
  const hsts = all["strict-transport-security"];
  if (hsts) kept["strict-transport-security"] = hsts;
  return kept;
}

/**
 * The public API answers programs that authenticate with an x-api-key header, which a browser
 * never sends by navigating: its answers are data, not pages of this site. They get the headers
 * OWASP's REST guidance names for APIs — the strictest policy (nothing may load, no framing) in
 * one short CSP instead of the site's, no sniffing, HSTS, no referrer — not the page set of the
 * SPA, whose bytes every call of a partner's mailing would carry.
 */
export function apiSecurityHeaders(all: Record<string, string>): Record<string, string> {
  return {
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    ...minimalSecurityHeaders(all),
  };
}

/** On every answer, refusals and errors included: the hook runs before the access check. */
export function registerSecurityHeaders(app: FastifyInstance) {
  const headers = securityHeaders();
  const sets = { minimal: minimalSecurityHeaders(headers), api: apiSecurityHeaders(headers) };
  app.addHook("onRequest", (request, reply, done) => {
    const set = request.routeOptions.config.securityHeaders;
    reply.headers(set ? sets[set] : headers);
    done();
  });
}
