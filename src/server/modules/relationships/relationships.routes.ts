import { messageResponseSchema } from "@shared/auth";
import { errorBodySchema, idParamsSchema } from "@shared/http";
import { organizationSearchQuerySchema, organizationSearchResultSchema } from "@shared/organizations";
import {
  addRelationshipSchema,
  inviteContactSchema,
  relationshipSchema,
  updateRelationshipSchema,
} from "@shared/relationships";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireMember } from "../../plugins/auth";
import { searchOrganizations } from "./organization-search";
import { inviteRelationshipContact } from "./relationship-invite";
import {
  addRelationship,
  deleteRelationship,
  getRelationship,
  listRelationships,
  updateRelationship,
} from "./relationships.service";

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export async function relationshipsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const member = { access: "member" as const };

  r.get(
    "/api/relationships",
    { config: member, schema: { response: { 200: z.array(relationshipSchema), ...errors } } },
    async (request) => listRelationships(app.db, requireMember(request).organizationId),
  );

  r.get(
    "/api/relationships/:id",
    { config: member, schema: { params: idParamsSchema, response: { 200: relationshipSchema, ...errors } } },
    async (request) => getRelationship(app.db, requireMember(request).organizationId, request.params.id),
  );

  r.post(
    "/api/relationships",
    {
      config: member,
      schema: {
        body: addRelationshipSchema,
        response: { 200: relationshipSchema, 201: relationshipSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { relationship, created } = await addRelationship(
        app.db,
        app.notifications,
        requireMember(request).organizationId,
        request.body,
      );
      return reply.code(created ? 201 : 200).send(relationship);
    },
  );

  r.patch(
    "/api/relationships/:id",
    {
      config: member,
      schema: {
        params: idParamsSchema,
        body: updateRelationshipSchema,
        response: { 200: relationshipSchema, ...errors },
      },
    },
    async (request) =>
      updateRelationship(
        app.db,
        app.notifications,
        requireMember(request).organizationId,
        request.params.id,
        request.body,
      ),
  );

  r.delete(
    "/api/relationships/:id",
    { config: member, schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await deleteRelationship(
        app.db,
        app.notifications,
        requireMember(request).organizationId,
        request.params.id,
      );
      return reply.code(204).send(null);
    },
  );

  r.post(
    "/api/relationships/:id/invite",
    {
      config: member,
      schema: {
        params: idParamsSchema,
        body: inviteContactSchema,
        response: { 200: messageResponseSchema, 429: errorBodySchema, ...errors },
      },
    },
    async (request) => {
      const auth = requireMember(request);
      // Mail to arbitrary addresses: limited per organization so the platform is no spam cannon.
      await app.limits.relationshipInvite.take({ organization: auth.organizationId });
      await inviteRelationshipContact(app.db, {
        organizationId: auth.organizationId,
        relationshipId: request.params.id,
        email: request.body.email,
        inviterEmail: auth.email,
        publicUrl: app.config.publicUrl,
      });
      app.outbox.wake();
      return { message: "Invitation sent successfully" };
    },
  );

  r.get(
    "/api/organizations/search",
    {
      config: member,
      schema: {
        querystring: organizationSearchQuerySchema,
        response: { 200: z.array(organizationSearchResultSchema), ...errors },
      },
    },
    async (request) =>
      searchOrganizations(app.db, requireMember(request).organizationId, request.query.query),
  );
}
