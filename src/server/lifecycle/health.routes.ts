import type { FastifyInstance } from "fastify";

export type HealthRoutesOptions = {
  /** What is not ready (lifecycle/readiness.ts); nothing when ready. */
  readiness: () => Promise<string[]>;
};

// Balancers and orchestrators ask every few seconds: no request log lines, never cached.
const probe = { config: { access: "public", whileStarting: true }, logLevel: "warn" } as const;

/** Liveness and readiness for load balancers and orchestrators (README, "Run several instances"). */
export async function healthRoutes(app: FastifyInstance, options: HealthRoutesOptions) {
  // Alive: the process answers. No I/O, so a slow database never gets the instance restarted.
  app.get("/healthz", probe, async (_request, reply) => {
    reply.header("Cache-Control", "no-store");
    return { status: "ok" };
  });

  // Ready: send it traffic. 503 while starting, once SIGTERM arrives, and while the database or
  // its migrations are not there. Not Redis: without it every request is still served.
  app.get("/readyz", probe, async (_request, reply) => {
    reply.header("Cache-Control", "no-store");
    const problems = await options.readiness();
    if (problems.length > 0) return reply.code(503).send({ message: `Not ready: ${problems.join("; ")}` });
    return { status: "ready" };
  });
}
