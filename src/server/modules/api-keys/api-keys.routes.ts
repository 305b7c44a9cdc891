import { apiKeySchema, createApiKeySchema, createdApiKeySchema } from "@shared/api-keys";
import { errorBodySchema, idParamsSchema } from "@shared/http";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireMember } from "../../plugins/auth";
import { securityActor } from "../security-log/security-actor";
import { createApiKey, listApiKeys } from "./api-keys.service";

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** CONTRACT §7: API keys are for admins. */
export async function apiKeysRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { access: "admin" as const };

  r.get(
    "/api/api-keys",
    { config: admin, schema: { response: { 200: z.array(apiKeySchema), ...errors } } },
    async (request) => listApiKeys(app.db, requireMember(request).organizationId),
  );

  r.post(
    "/api/api-keys",
    {
      config: admin,
      // It answers the new key in full: never compressed (plugins/compression.ts, BREACH).
      compress: false,
      schema: { body: createApiKeySchema, response: { 201: createdApiKeySchema, ...errors } },
    },
    async (request, reply) => {
      const { organizationId } = requireMember(request);
      const created = await createApiKey(app.db, organizationId, request.body.name, securityActor(request));
      return reply.code(201).send({ ...created, message: "API key saved successfully" });
    },
  );

  r.delete(
    "/api/api-keys/:id",
    {
      config: admin,
      schema: {
        params: idParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await app.apiKeys.revoke(
        requireMember(request).organizationId,
        request.params.id,
        securityActor(request),
      );
      return reply.code(204).send(null);
    },
  );
}
