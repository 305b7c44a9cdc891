import { errorBodySchema } from "@shared/http";
import {
  LEDGER_DAYS_DEFAULT,
  type PartnersLedger,
  partnersLedgerSchema,
  partnersQuerySchema,
} from "@shared/reciprocity";
import {
  activitySchema,
  dailyMetricsSchema,
  dailyRevenueSchema,
  metricsSchema,
  revenueQuerySchema,
  revenueSchema,
} from "@shared/tracking";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireMember } from "../../../plugins/auth";
import { dailyMetrics, recentActivity } from "./overview.service";
import { readPartnersLedger } from "./partners.service";
import { readDailyRevenue, readRevenue } from "./revenue.service";
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

  // CONTRACT §8: revenue both ways, per currency; with partnerId, one Buddy's.
  r.get(
    "/api/metrics/revenue",
    {
      config: { access: "member" },
      schema: {
        querystring: revenueQuerySchema,
        response: { 200: revenueSchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => {
      const { organizationId } = requireMember(request);
      return readRevenue(app.db, organizationId, { partnerId: request.query.partnerId });
    },
  );
  r.get(
    "/api/metrics/revenue/daily",
    {
      config: { access: "member" },
      schema: { response: { 200: dailyRevenueSchema, 401: errorBodySchema, 403: errorBodySchema } },
    },
    async (request) => {
      const { organizationId } = requireMember(request);
      return readDailyRevenue(app.db, organizationId);
    },
  );

  // CONTRACT §10: give and take per partner over a window.
  r.get(
    "/api/metrics/partners",
    {
      config: { access: "member" },
      schema: {
        querystring: partnersQuerySchema,
        response: {
          200: partnersLedgerSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireMember(request);
      const ledger = await readPartnersLedger(
        app.db,
        organizationId,
        request.query.days ?? LEDGER_DAYS_DEFAULT,
      );
      // Up to a thousand partners or more: checking the answer against the schema on the way out
      // (zod copies every object) took a fifth of the server's time for it, and made the garbage
      // that took a tenth more. The ledger is typed as the schema's output, so it is sent as
      // JSON.stringify writes it, as the Ads API sends its cached body.
      return (reply as FastifyReply)
        .type("application/json; charset=utf-8")
        .serializer(String)
        .send(JSON.stringify(ledger satisfies PartnersLedger));
    },
  );

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
