import { userSchema } from "@shared/auth";
import { errorBodySchema } from "@shared/http";
import { nextStepsSchema } from "@shared/next-steps";
import { onboardingSchema, websiteSuggestionSchema } from "@shared/onboarding";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAuth, requireMember } from "../../plugins/auth";
import { workMailboxDomain } from "../domain-control/email-proof";
import { securityActor } from "../security-log/security-actor";
import { readNextSteps } from "./next-steps";
import { cancelDomainClaim, checkDomainClaim, completeOnboarding } from "./onboarding.service";

const resultSchema = z.object({ user: userSchema, message: z.string() });

export async function onboardingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const caller = (request: FastifyRequest) => ({
    email: requireAuth(request).email,
    ...securityActor(request),
  });
  const deps = () => ({
    db: app.db,
    changes: app.notifications,
    publicUrl: app.config.publicUrl,
    onMailQueued: () => app.outbox.wake(),
    prover: app.domainProver,
    onApiKeysRevoked: (keyHashes: readonly string[]) => app.apiKeys.forgetRevoked(keyHashes),
  });

  r.post(
    "/api/onboarding",
    {
      // Any signed-in user: onboarding is how a user gets an organization.
      config: { access: "user" },
      schema: {
        body: onboardingSchema,
        response: {
          200: resultSchema,
          201: resultSchema,
          202: resultSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const result = await completeOnboarding(deps(), caller(request), request.body);
      return reply.code(result.status).send({ user: result.user, message: result.message });
    },
  );

  // The verification screen's "Check again" (CONTRACT §4): 201 set up, 202 pending, 200 not yet.
  r.post(
    "/api/onboarding/domain-check",
    {
      config: { access: "user" },
      schema: {
        response: {
          200: resultSchema,
          201: resultSchema,
          202: resultSchema,
          401: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const auth = caller(request);
      // Each check fetches a site: limited per client as /api/metadata is, beside the spacing.
      await app.limits.domainCheck.take({ client: request.ip });
      const result = await checkDomainClaim(deps(), auth);
      return reply.code(result.status).send({ user: result.user, message: result.message });
    },
  );

  r.delete(
    "/api/onboarding/domain-claim",
    { config: { access: "user" }, schema: { response: { 204: z.null(), 401: errorBodySchema } } },
    async (request, reply) => {
      await cancelDomainClaim(app.db, requireAuth(request).userId);
      return reply.code(204).send(null);
    },
  );

  // Step 1's website, prefilled from the address the user signed up with (read from the session,
  // never from input): only a work address names its company.
  r.get(
    "/api/onboarding/website",
    {
      config: { access: "user" },
      schema: { response: { 200: websiteSuggestionSchema, 401: errorBodySchema } },
    },
    async (request) => ({ website: workMailboxDomain(requireAuth(request).email) }),
  );

  // The overview's "Next steps" after set-up, for any member of the organization.
  r.get(
    "/api/onboarding/next-steps",
    {
      config: { access: "member" },
      schema: { response: { 200: nextStepsSchema, 401: errorBodySchema, 403: errorBodySchema } },
    },
    async (request) => readNextSteps(app.db, requireMember(request).organizationId),
  );
}
