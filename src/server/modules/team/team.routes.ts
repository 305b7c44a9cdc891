import { errorBodySchema, idParamsSchema } from "@shared/http";
import {
  changeTeamMemberRoleSchema,
  inviteTeamMemberSchema,
  TEAM_MESSAGES,
  teamMemberSchema,
} from "@shared/team";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireMember } from "../../plugins/auth";
import { securityActor } from "../security-log/security-actor";
import {
  approveTeamMember,
  assertMayInvite,
  changeTeamMemberRole,
  inviteTeamMember,
  listTeam,
  removeTeamMember,
  type TeamDeps,
} from "./team.service";

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};
const memberResult = z.object({ message: z.string(), member: teamMemberSchema });

/**
 * SPEC §7 / CONTRACT §7: every member sees the team and may invite members; approving,
 * changing roles and removing are for admins (the `admin` access guard).
 */
export async function teamRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps: TeamDeps = {
    db: app.db,
    publicUrl: app.config.publicUrl,
    onMailQueued: () => app.outbox.wake(),
  };

  r.get(
    "/api/team-members",
    { config: { access: "member" }, schema: { response: { 200: z.array(teamMemberSchema), ...errors } } },
    async (request) => listTeam(app.db, requireMember(request).organizationId),
  );

  r.post(
    "/api/team-members/invite",
    {
      config: { access: "member" },
      schema: { body: inviteTeamMemberSchema, response: { 201: memberResult, ...errors } },
    },
    async (request, reply) => {
      const auth = requireMember(request);
      // Each invitation sends a mail: limited per client and per invited address, in a family of
      // its own (a busy inviter never locks out logins from the same address). A refused
      // invitation sends nothing, so the role check comes first and costs nothing.
      assertMayInvite(auth, request.body.role);
      await app.limits.teamInvite.take({ client: request.ip, address: request.body.email });
      const member = await inviteTeamMember(deps, auth, request.body, securityActor(request));
      return reply.code(201).send({ message: TEAM_MESSAGES.invitationSent, member });
    },
  );

  r.post(
    "/api/team-members/:id/approve",
    {
      config: { access: "admin" },
      schema: { params: idParamsSchema, response: { 200: memberResult, ...errors } },
    },
    async (request) => {
      const { organizationId } = requireMember(request);
      const member = await approveTeamMember(deps, organizationId, request.params.id, securityActor(request));
      return { message: TEAM_MESSAGES.approved, member };
    },
  );

  r.patch(
    "/api/team-members/:id",
    {
      config: { access: "admin" },
      schema: {
        params: idParamsSchema,
        body: changeTeamMemberRoleSchema,
        response: { 200: memberResult, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = requireMember(request);
      const member = await changeTeamMemberRole(
        app.db,
        organizationId,
        request.params.id,
        request.body.role,
        securityActor(request),
      );
      return { message: TEAM_MESSAGES.roleChanged, member };
    },
  );

  r.delete(
    "/api/team-members/:id",
    {
      config: { access: "admin" },
      schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      const { organizationId } = requireMember(request);
      await removeTeamMember(app.db, organizationId, request.params.id, securityActor(request));
      return reply.code(204).send(null);
    },
  );
}
