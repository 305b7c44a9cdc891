import { userSchema } from "@shared/auth";
import { errorBodySchema } from "@shared/http";
import { onboardingSchema } from "@shared/onboarding";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAuth } from "../../plugins/auth";
import { completeOnboarding } from "./onboarding.service";

const resultSchema = z.object({ user: userSchema, message: z.string() });

export async function onboardingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/api/onboarding",
    {
      // Any signed-in user: onboarding is how a user gets an organization.
      config: { access: "user" },
      schema: {
        body: onboardingSchema,
        response: {
          201: resultSchema,
          202: resultSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const result = await completeOnboarding(
        { db: app.db, publicUrl: app.config.publicUrl, onMailQueued: () => app.outbox.wake() },
        auth,
        request.body,
      );
      return reply.code(result.status).send({ user: result.user, message: result.message });
    },
  );
}
