import { UNCOUNTED_DAYS_DEFAULT } from "@shared/click-reasons";
import { errorBodySchema } from "@shared/http";
import {
  activitySchema,
  dailyFiguresSchema,
  dailyRevenueSchema,
  revenueQuerySchema,
  revenueSchema,
  sentReceivedSchema,
  uncountedClicksQuerySchema,
  uncountedClicksSchema,
} from "@shared/tracking";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireMember } from "../../../plugins/auth";
import { dailyFigures, recentActivity } from "./overview.service";
import { readDailyRevenue, readRevenue } from "./revenue.service";
import { readTotals } from "./totals.service";
import { readUncountedClicks } from "./uncounted.service";

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
        schema: { response: { 200: sentReceivedSchema, 401: errorBodySchema, 403: errorBodySchema } },
      },
      async (request) => {
        const { organizationId } = requireMember(request);
        return readTotals(app.db, organizationId, column);
      },
    );
  }

  // CONTRACT §5: the clicks of a window that did not count, and why (the overview's "Why?").
  r.get(
    "/api/metrics/clicks/uncounted",
    {
      config: { access: "member" },
      schema: {
        summary: "Clicks that did not count, by reason",
        description:
          "Clicks stored in the last `days` UTC days (today included) that did not count, on your links " +
          "(`sent`) and on partners' links to you (`received`), by reason: `bot`, `repeat`, `burst`, " +
          "`source_cap` (past 3 a day from one network source for the pair), `own_click` (from where a " +
          "member of the sender signed in), `blocked`, `not_live`.",
        querystring: uncountedClicksQuerySchema,
        response: {
          200: uncountedClicksSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { organizationId } = requireMember(request);
      return readUncountedClicks(app.db, organizationId, request.query.days ?? UNCOUNTED_DAYS_DEFAULT);
    },
  );

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

  // The overview's 30-day chart and its recent-activity list.
  r.get(
    "/api/metrics/daily",
    {
      config: { access: "member" },
      schema: { response: { 200: dailyFiguresSchema, 401: errorBodySchema, 403: errorBodySchema } },
    },
    async (request) => {
      const { organizationId } = requireMember(request);
      return dailyFigures(app.db, organizationId);
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
