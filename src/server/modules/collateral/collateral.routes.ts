import {
  collateralSchema,
  createCollateralSchema,
  generatedCollateralSchema,
  updateCollateralSchema,
} from "@shared/collateral";
import { errorBodySchema, idField, idParamsSchema } from "@shared/http";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireMember } from "../../plugins/auth";
import {
  assertRelated,
  createCollateral,
  deleteCollateral,
  listCollateral,
  updateCollateral,
} from "./collateral.service";
import { generateCollateral } from "./collateral-generator";

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export async function collateralRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const member = { access: "member" as const };

  r.get(
    "/api/marketing/collateral",
    {
      config: member,
      schema: {
        querystring: z.object({ organizationId: idField("organizationId").optional() }),
        response: { 200: z.array(collateralSchema), ...errors },
      },
    },
    async (request) =>
      listCollateral(app.db, requireMember(request).organizationId, request.query.organizationId, {
        publicUrl: app.config.publicUrl,
        secret: app.config.appSecret ?? "",
      }),
  );

  r.post(
    "/api/marketing/collateral",
    {
      config: member,
      schema: { body: createCollateralSchema, response: { 201: collateralSchema, ...errors } },
    },
    async (request, reply) => {
      const { organizationId } = requireMember(request);
      const created = await createCollateral(app.db, app.notifications, {
        organizationId,
        createdByOrganizationId: organizationId,
        fields: request.body,
      });
      return reply.code(201).send(created);
    },
  );

  r.patch(
    "/api/marketing/collateral/:id",
    {
      config: member,
      schema: {
        params: idParamsSchema,
        body: updateCollateralSchema,
        response: { 200: collateralSchema, ...errors },
      },
    },
    async (request) =>
      updateCollateral(
        app.db,
        app.notifications,
        requireMember(request).organizationId,
        request.params.id,
        request.body,
      ),
  );

  r.delete(
    "/api/marketing/collateral/:id",
    { config: member, schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await deleteCollateral(
        app.db,
        app.notifications,
        requireMember(request).organizationId,
        request.params.id,
      );
      return reply.code(204).send(null);
    },
  );

  r.post(
    "/api/marketing/generate",
    {
      config: member,
      schema: {
        querystring: z.object({
          organizationId: idField("organizationId").optional(),
          autoSave: z.enum(["true", "false"]).optional(),
        }),
        response: { 200: generatedCollateralSchema, 201: generatedCollateralSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireMember(request);
      const targetId = request.query.organizationId ?? organizationId;
      await assertRelated(app.db, organizationId, targetId);
      const generated = await generateCollateral(
        {
          db: app.db,
          siteMetadata: app.siteMetadata,
          publicUrl: app.config.publicUrl,
          writer: app.collateralWriter,
        },
        { organizationId, targetId },
      );
      if (request.query.autoSave !== "true") return generated;
      // Generated for a Buddy from its page: ready to share at once. One's own stays a draft.
      const saved = await createCollateral(app.db, app.notifications, {
        organizationId: targetId,
        createdByOrganizationId: organizationId,
        fields: { ...generated, status: targetId === organizationId ? "draft" : "active" },
      });
      return reply.code(201).send(saved);
    },
  );
}
