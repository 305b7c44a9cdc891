import { organizationDomainStatusSchema } from "@shared/domain-verification";
import { errorBodySchema } from "@shared/http";
import {
  installSettingsSchema,
  metadataQuerySchema,
  metadataResponseSchema,
  organizationSchema,
  updateOrganizationSchema,
} from "@shared/organizations";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { badRequest } from "../../errors";
import { OutboundFetchError } from "../../lib/safe-fetch";
import { requireMember } from "../../plugins/auth";
import { checkOrganizationDomain, organizationDomainStatus } from "../domain-control/domain-control.service";
import { securityActor } from "../security-log/security-actor";
import {
  cancelPendingDomain,
  getOrganization,
  toOwnOrganization,
  updateOrganization,
} from "./organizations.service";

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export async function organizationsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/api/organization",
    { config: { access: "member" }, schema: { response: { 200: organizationSchema, ...errors } } },
    async (request) =>
      toOwnOrganization(await getOrganization(app.db, requireMember(request).organizationId)),
  );

  r.get(
    "/api/organization/install",
    { config: { access: "member" }, schema: { response: { 200: installSettingsSchema, ...errors } } },
    async (request) => ({
      organizationId: requireMember(request).organizationId,
      publicUrl: app.config.publicUrl,
    }),
  );

  r.patch(
    "/api/organization",
    {
      config: { access: "admin" },
      schema: {
        body: updateOrganizationSchema,
        response: { 200: organizationSchema, 409: errorBodySchema, ...errors },
      },
    },
    async (request) => {
      const actor = { organizationId: requireMember(request).organizationId, ...securityActor(request) };
      return toOwnOrganization(await updateOrganization(app.db, app.notifications, actor, request.body));
    },
  );

  // Settings → "Keep DOMAIN": drops a website change that waits for its domain to be proven.
  r.delete(
    "/api/organization/pending-domain",
    { config: { access: "admin" }, schema: { response: { 200: organizationSchema, ...errors } } },
    async (request) =>
      toOwnOrganization(await cancelPendingDomain(app.db, requireMember(request).organizationId)),
  );

  // CONTRACT §4: an organization whose domain is not proven (a changed website, or one set up
  // before proof was required) proves it here; only its admins see the token.
  r.get(
    "/api/organization/domain-verification",
    { config: { access: "admin" }, schema: { response: { 200: organizationDomainStatusSchema, ...errors } } },
    async (request) => organizationDomainStatus(app.db, requireMember(request).organizationId),
  );

  r.post(
    "/api/organization/domain-verification",
    {
      config: { access: "admin" },
      schema: {
        response: {
          200: organizationDomainStatusSchema,
          409: errorBodySchema,
          429: errorBodySchema,
          ...errors,
        },
      },
    },
    async (request) => {
      const member = requireMember(request);
      // Each check fetches a site: limited per client as /api/metadata is, beside the spacing.
      await app.limits.domainCheck.take({ client: request.ip });
      return checkOrganizationDomain(
        { db: app.db, changes: app.notifications, prover: app.domainProver },
        member,
        securityActor(request),
      );
    },
  );

  // Public: onboarding calls it before the company exists. Limited per client, since each miss
  // makes an outbound request.
  r.get(
    "/api/metadata",
    {
      config: { access: "public" },
      schema: {
        querystring: metadataQuerySchema,
        response: { 200: metadataResponseSchema, 429: errorBodySchema, ...errors },
      },
    },
    async (request) => {
      await app.limits.metadata.take({ client: request.ip });
      try {
        // The service normalises the domain itself (keeping a port only for local fixture sites).
        return await app.siteMetadata.getMetadata(request.query.domain);
      } catch (error) {
        if (error instanceof OutboundFetchError) {
          // A refused address is the caller's mistake (or an SSRF attempt): say so.
          if (error.reason === "blocked_address" || error.reason === "invalid_url") {
            throw badRequest("This website cannot be fetched: it is not a public address");
          }
          // An unreachable site is no server error: the form simply is not filled in.
          request.log.info({ reason: error.reason }, "site metadata unavailable");
          return { siteName: "", description: "" };
        }
        throw error;
      }
    },
  );
}
