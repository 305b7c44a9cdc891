import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

/**
 * Strict defaults for the SPA and the API: scripts only from this origin, no framing,
 * no referrer leaking tokens in query strings to other sites.
 */
export async function registerSecurityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
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
    // Later: tracking scripts and logos are embedded by other origins.
    crossOriginResourcePolicy: { policy: "same-site" },
  });
}
