import { errorBodySchema, idParamsSchema } from "@shared/http";
import {
  createdWebhookSchema,
  createWebhookSchema,
  queuedWebhookMessageSchema,
  rotatedSecretSchema,
  updateWebhookSchema,
  webhookDeliveriesQuerySchema,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
} from "@shared/webhooks";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireMember } from "../../plugins/auth";
import { securityActor } from "../security-log/security-actor";
import {
  createEndpoint,
  deleteEndpoint,
  type EndpointContext,
  listDeliveries,
  listEndpoints,
  resendAttempt,
  rotateSecret,
  sendTestMessage,
  updateEndpoint,
} from "./webhook-endpoints.service";
import { webhookSecretSealer } from "./webhook-secrets";

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** CONTRACT §9: admins manage their organization's endpoints; members get 403, others' ids 404. */
export async function webhooksRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { access: "admin" as const };
  const context: EndpointContext = {
    db: app.db,
    sealer: webhookSecretSealer(app.config.appSecret ?? ""),
    allowPrivate: app.config.outboundAllowPrivate,
  };

  r.get(
    "/api/webhooks",
    {
      config: admin,
      schema: {
        operationId: "listWebhookEndpoints",
        response: { 200: z.array(webhookEndpointSchema), ...errors },
      },
    },
    async (request) => listEndpoints(app.db, requireMember(request).organizationId),
  );

  r.post(
    "/api/webhooks",
    {
      config: admin,
      // It answers the secret in full: never compressed (plugins/compression.ts, BREACH).
      compress: false,
      schema: {
        operationId: "createWebhookEndpoint",
        body: createWebhookSchema,
        response: { 201: createdWebhookSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireMember(request);
      const created = await createEndpoint(context, organizationId, request.body, securityActor(request));
      return reply.code(201).send(created);
    },
  );

  r.patch(
    "/api/webhooks/:id",
    {
      config: admin,
      schema: {
        operationId: "updateWebhookEndpoint",
        params: idParamsSchema,
        body: updateWebhookSchema,
        response: { 200: webhookEndpointSchema, ...errors },
      },
    },
    async (request) =>
      updateEndpoint(
        context,
        requireMember(request).organizationId,
        request.params.id,
        request.body,
        securityActor(request),
      ),
  );

  r.delete(
    "/api/webhooks/:id",
    {
      config: admin,
      schema: {
        operationId: "deleteWebhookEndpoint",
        params: idParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireMember(request);
      await deleteEndpoint(app.db, organizationId, request.params.id, securityActor(request));
      return reply.code(204).send(null);
    },
  );

  r.post(
    "/api/webhooks/:id/rotate-secret",
    {
      config: admin,
      compress: false,
      schema: {
        operationId: "rotateWebhookSecret",
        params: idParamsSchema,
        response: { 200: rotatedSecretSchema, ...errors },
      },
    },
    async (request) =>
      rotateSecret(context, requireMember(request).organizationId, request.params.id, securityActor(request)),
  );

  r.post(
    "/api/webhooks/:id/test",
    {
      config: admin,
      schema: {
        operationId: "sendWebhookTest",
        params: idParamsSchema,
        response: { 202: queuedWebhookMessageSchema, 429: errorBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireMember(request);
      // Each test is a request to a URL of the admin's choosing: Buddy is no one's load generator.
      await app.limits.webhookTest.take({ organization: organizationId });
      const queued = await sendTestMessage(app.db, organizationId, request.params.id);
      app.outbox.wake();
      return reply.code(202).send(queued);
    },
  );

  r.get(
    "/api/webhooks/:id/deliveries",
    {
      config: admin,
      schema: {
        operationId: "listWebhookDeliveries",
        params: idParamsSchema,
        querystring: webhookDeliveriesQuerySchema,
        response: { 200: z.array(webhookDeliverySchema), ...errors },
      },
    },
    async (request) =>
      listDeliveries(
        app.db,
        requireMember(request).organizationId,
        request.params.id,
        request.query.messageId,
      ),
  );

  r.post(
    "/api/webhooks/:id/deliveries/:deliveryId/resend",
    {
      config: admin,
      schema: {
        operationId: "resendWebhookMessage",
        params: webhookDeliveryParamsSchema,
        response: { 202: queuedWebhookMessageSchema, 409: errorBodySchema, 429: errorBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireMember(request);
      // A resend is a request to the endpoint as a test is, with an allowance of its own.
      await app.limits.webhookResend.take({ organization: organizationId });
      const queued = await resendAttempt(
        app.db,
        organizationId,
        request.params.id,
        request.params.deliveryId,
        securityActor(request),
      );
      app.outbox.wake();
      return reply.code(202).send(queued);
    },
  );
}
