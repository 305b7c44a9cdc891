import type { FastifyInstance } from "fastify";
import type { Lifecycle } from "../lifecycle/lifecycle";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Answers before start-up has finished (the health checks); every other route waits. */
    whileStarting?: boolean;
  }
}

export const STARTING_MESSAGE = "Buddy is starting; try again shortly.";

/**
 * Until start-up has finished (migrations, seeds: lifecycle.ts) the instance is listening but
 * cannot answer from its database: every route but the health checks answers 503 with
 * Retry-After. After that it costs each request one boolean test.
 */
export function registerStartGate(app: FastifyInstance, lifecycle: Lifecycle) {
  app.addHook("onRequest", (request, reply, done) => {
    if (lifecycle.serving || request.routeOptions.config.whileStarting) return done();
    reply.code(503).header("Retry-After", "1").send({ message: STARTING_MESSAGE });
  });
}
