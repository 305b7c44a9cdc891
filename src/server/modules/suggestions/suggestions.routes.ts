import { errorBodySchema } from "@shared/http";
import { suggestionsQuerySchema, suggestionsResponseSchema } from "@shared/suggestions";
import { isValidDomain, normalizeWebsite } from "@shared/website";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { badRequest } from "../../errors";
import { resolveOptionalMember } from "../../plugins/auth";
import { computeSuggestions, dashboardSuggestions } from "./suggestions.service";

export async function suggestionsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Public for onboarding (SPEC §7: no auth header); with a member's token it is the
  // dashboard's stored, refreshable list for the caller's own organization.
  r.get(
    "/api/ecosystem/suggestions",
    {
      config: { access: "public" },
      schema: {
        querystring: suggestionsQuerySchema,
        response: {
          200: suggestionsResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      const member = await resolveOptionalMember(app, request);
      if (member) {
        return dashboardSuggestions(app.db, member.organizationId, { force: request.query.force === "true" });
      }
      await app.limits.suggestions.take({ client: request.ip });
      const domain = normalizeWebsite(request.query.domain);
      if (!isValidDomain(domain)) throw badRequest("Must be a valid domain");
      return computeSuggestions(
        app.db,
        {
          domain,
          name: request.query.name,
          description: request.query.description,
          providers: { transactional: request.query.transactional, marketing: request.query.marketing },
        },
        { ownExclusions: false },
      );
    },
  );
}
