import { messageResponseSchema } from "@shared/auth";
import {
  DELETION_MESSAGES,
  deletionConfirmedSchema,
  deletionConfirmSchema,
  organizationDeletionSchema,
} from "@shared/deletion";
import { errorBodySchema } from "@shared/http";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireAuth, requireMember } from "../../plugins/auth";
import { securityActor } from "../security-log/security-actor";
import {
  confirmDeletion,
  type DeletionDeps,
  requestAccountDeletion,
  requestOrganizationDeletion,
} from "./deletion.service";

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};

/**
 * Issue 38: deletion on request. Asking (an admin for the organization, anyone for their own
 * account) mails a link; the link's page confirms with its token, signed in or not, since the
 * mailbox's owner is who decides.
 */
export async function deletionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps: DeletionDeps = {
    db: app.db,
    publicUrl: app.config.publicUrl,
    changes: app.notifications,
    log: app.log,
    onMailQueued: () => app.outbox.wake(),
  };

  r.post(
    "/api/organization/deletion",
    {
      config: { access: "admin" },
      schema: { body: organizationDeletionSchema, response: { 202: messageResponseSchema, ...errors } },
    },
    async (request, reply) => {
      const auth = requireMember(request);
      const actor = securityActor(request);
      await app.limits.deletionRequest.take({ client: request.ip, address: auth.email });
      await requestOrganizationDeletion(deps, auth, request.body.name, actor);
      return reply.code(202).send({ message: DELETION_MESSAGES.mailSent });
    },
  );

  r.post(
    "/api/account/deletion",
    { config: { access: "user" }, schema: { response: { 202: messageResponseSchema, ...errors } } },
    async (request, reply) => {
      const auth = requireAuth(request);
      await app.limits.deletionRequest.take({ client: request.ip, address: auth.email });
      await requestAccountDeletion(deps, auth, securityActor(request));
      return reply.code(202).send({ message: DELETION_MESSAGES.mailSent });
    },
  );

  r.post(
    "/api/deletion/confirm",
    {
      config: { access: "public" },
      schema: { body: deletionConfirmSchema, response: { 200: deletionConfirmedSchema, ...errors } },
    },
    async (request) => {
      await app.limits.deletionConfirm.take({ client: request.ip });
      return confirmDeletion(deps, request.body.token);
    },
  );
}
