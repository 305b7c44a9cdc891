import { errorBodySchema } from "@shared/http";
import { securityLogQuerySchema, securityLogResponseSchema } from "@shared/security-log";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireMember } from "../../plugins/auth";
import { listSecurityLog } from "./security-log.service";

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

/** CONTRACT §3: the organization's security log, for its admins. */
export async function securityLogRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/api/security-log",
    {
      config: { access: "admin" },
      schema: {
        querystring: securityLogQuerySchema,
        response: { 200: securityLogResponseSchema, ...errors },
      },
    },
    async (request) => listSecurityLog(app.db, requireMember(request).organizationId, request.query),
  );
}
