import { errorBodySchema } from "@shared/http";
import { activitySchema, dailyMetricsSchema, metricsSchema } from "@shared/tracking";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireMember } from "../../../plugins/auth";
import { dailyMetrics, recentActivity } from "./overview.service";
import { readTotals } from "./totals.service";

export async function dashboardFiguresRoutes(app: FastifyInstance) {
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
      async (request) => {
        const { organizationId } = requireMember(request);
        return readTotals(app.db, organizationId, column);
      },
    );
  }

  // The overview's 30-day chart and its recent-activity list.
  r.get(
    "/api/metrics/daily",
    {
      config: { access: "member" },
      schema: { response: { 200: dailyMetricsSchema, 401: errorBodySchema, 403: errorBodySchema } },
    },
    async (request) => {
      const { organizationId } = requireMember(request);
      return dailyMetrics(app.db, organizationId);
    },
  );
  r.get(
    "/api/activity",
    {
      config: { access: "member" },
      schema: { response: { 200: activitySchema, 401: errorBodySchema, 403: errorBodySchema } },
    },
    async (request) => {
      const { organizationId } = requireMember(request);
      return recentActivity(app.db, organizationId);
    },
  );
}
