import { errorBodySchema } from "@shared/http";
import { metricsSchema } from "@shared/tracking";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireMember } from "../../plugins/auth";
import { readMetrics } from "./metrics.service";

export async function metricsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const [path, column] of [
    ["/api/metrics/clicks", "clicks"],
    ["/api/metrics/leads", "leads"],
  ] as const) {
    r.get(
      path,
      {
        config: { access: "member" },
        schema: { response: { 200: metricsSchema, 401: errorBodySchema, 403: errorBodySchema } },
      },
      async (request) => readMetrics(app.db, requireMember(request).organizationId, column),
    );
  }
}
