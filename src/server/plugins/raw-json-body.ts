import type { FastifyInstance } from "fastify";

/**
 * For a webhook whose signature covers the exact bytes sent (Stripe's): inside this encapsulated
 * instance, a JSON body is handed to the route as the Buffer that arrived, not parsed.
 */
export function keepRawJsonBody(instance: FastifyInstance, bodyLimit: number) {
  instance.removeContentTypeParser("application/json");
  instance.addContentTypeParser(
    "application/json",
    { parseAs: "buffer", bodyLimit },
    (_request, body, done) => done(null, body),
  );
}
