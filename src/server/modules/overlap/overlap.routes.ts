import { idParamsSchema } from "@shared/http";
import {
  OVERLAP_MAX_DOMAINS,
  overlapDiscoverableSchema,
  overlapDiscoveryUpdateSchema,
  overlapPartnerParamsSchema,
  overlapPartnerSchema,
  overlapPartnerUpdateSchema,
  overlapPopulationParamsSchema,
  overlapPopulationUpdateSchema,
  overlapRunAnswerSchema,
  overlapRunCompletionSchema,
  overlapRunSchema,
  overlapRunStartSchema,
  overlapRunsResponseSchema,
  overlapRunWorkSchema,
  overlapSettingsSchema,
  overlapSummarySchema,
} from "@shared/overlap";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireMember } from "../../plugins/auth";
import { API_TAGS } from "../../plugins/openapi";
import { errorResponse } from "../../plugins/openapi-responses";
import {
  discoverableOrganizations,
  overlapSettings,
  overlapSummary,
  partnerOverlap,
  removePopulation,
  savePopulation,
  setDiscovery,
  updatePartnerSettings,
} from "./overlap.service";
import {
  answerRun,
  completeRun,
  listRuns,
  type OverlapCaller,
  runsAwaiting,
  runWork,
  startRun,
} from "./overlap-runs.service";

/** An admin in the dashboard, or the organization's own server with an API key (the key decides alone). */
function overlapCaller(request: FastifyRequest): OverlapCaller {
  if (request.apiKeyAuth) {
    return { organizationId: request.apiKeyAuth.organizationId, userId: null, ipAddress: request.ip };
  }
  const auth = requireMember(request);
  return { organizationId: auth.organizationId, userId: auth.userId, ipAddress: request.ip };
}

const errors = {
  400: errorResponse("The body, a path id or the query is malformed; the message says which field."),
  401: errorResponse("No API key or session token, or one that is unknown, revoked or expired."),
  403: errorResponse("A signed-in member who is not an admin: account overlap is for admins only."),
  404: errorResponse("No such organization or run for you (a blocked pair is not found either)."),
  409: errorResponse(
    "The step is not allowed now: sharing is Hidden, the pair is not eligible, or not your turn.",
  ),
};

// Two lists of 50,000 points, 46 bytes each in JSON, and room for the rest.
const RUN_BODY_LIMIT = 2 * OVERLAP_MAX_DOMAINS * 46 + 64 * 1024;
const access = { access: "adminOrApiKey" as const, securityHeaders: "api" as const };
const security: Record<string, string[]>[] = [{ apiKey: [] }, { bearer: [] }];
/** Every route's place in the public API reference: the tag, the two ways in, its name and line. */
const documented = (operationId: string, summary: string) => ({
  tags: [API_TAGS.overlap],
  security,
  operationId,
  summary,
});

/**
 * CONTRACT §11: account overlap. The lists stay with their owners; these routes keep which lists
 * exist, the sharing levels, and relay the blinded points of a run between the two sides.
 */
export async function overlapRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;

  r.get(
    "/api/overlap",
    {
      config: access,
      schema: {
        ...documented("getOverlapSettings", "Your lists and discovery setting"),
        response: { 200: overlapSettingsSchema, ...errors },
      },
    },
    async (request) => overlapSettings(db, overlapCaller(request).organizationId),
  );

  r.put(
    "/api/overlap/populations/:population",
    {
      config: access,
      schema: {
        ...documented("saveOverlapPopulation", "Say that you hold a list, and its size"),
        description: "The list itself never leaves your side: only its number of distinct domains is sent.",
        params: overlapPopulationParamsSchema,
        body: overlapPopulationUpdateSchema,
        response: { 200: overlapSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = overlapCaller(request);
      await savePopulation(db, organizationId, request.params.population, request.body.domainCount);
      return overlapSettings(db, organizationId);
    },
  );

  r.delete(
    "/api/overlap/populations/:population",
    {
      config: access,
      schema: {
        ...documented("removeOverlapPopulation", "Remove a list"),
        params: overlapPopulationParamsSchema,
        response: { 200: overlapSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = overlapCaller(request);
      await removePopulation(db, organizationId, request.params.population);
      return overlapSettings(db, organizationId);
    },
  );

  r.put(
    "/api/overlap/discovery",
    {
      config: access,
      schema: {
        ...documented("setOverlapDiscovery", "Opt into (or out of) overlap discovery"),
        body: overlapDiscoveryUpdateSchema,
        response: { 200: overlapSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = overlapCaller(request);
      await setDiscovery(db, organizationId, request.body.enabled);
      return overlapSettings(db, organizationId);
    },
  );

  r.get(
    "/api/overlap/discoverable",
    {
      config: access,
      schema: {
        ...documented(
          "listOverlapDiscoverable",
          "Organizations you may compare lists with through discovery",
        ),
        response: { 200: overlapDiscoverableSchema, ...errors },
      },
    },
    async (request) => ({
      organizations: await discoverableOrganizations(db, overlapCaller(request).organizationId),
    }),
  );

  r.get(
    "/api/overlap/partners",
    {
      config: access,
      schema: {
        ...documented("listOverlapPartners", "The latest customer overlap with each partner"),
        response: { 200: overlapSummarySchema, ...errors },
      },
    },
    async (request) => overlapSummary(db, overlapCaller(request).organizationId),
  );

  r.get(
    "/api/overlap/partners/:partnerId",
    {
      config: access,
      schema: {
        ...documented("getOverlapPartner", "Sharing levels, lists and results with one partner"),
        params: overlapPartnerParamsSchema,
        response: { 200: overlapPartnerSchema, ...errors },
      },
    },
    async (request) => partnerOverlap(db, overlapCaller(request).organizationId, request.params.partnerId),
  );

  r.put(
    "/api/overlap/partners/:partnerId",
    {
      config: access,
      schema: {
        ...documented("updateOverlapPartner", "Set your sharing level for a partner, or consent to its runs"),
        params: overlapPartnerParamsSchema,
        body: overlapPartnerUpdateSchema,
        response: { 200: overlapPartnerSchema, ...errors },
      },
    },
    async (request) =>
      updatePartnerSettings(db, overlapCaller(request), request.params.partnerId, request.body),
  );

  r.get(
    "/api/overlap/runs",
    {
      config: access,
      schema: {
        ...documented("listOverlapRuns", "Your runs, or those waiting for your next step"),
        querystring: z.object({
          awaiting: z.enum(["true", "false"], { error: "awaiting must be true or false" }).optional(),
        }),
        response: { 200: overlapRunsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = overlapCaller(request);
      const runs =
        request.query.awaiting === "true"
          ? await runsAwaiting(db, organizationId)
          : await listRuns(db, organizationId);
      return { runs };
    },
  );

  r.post(
    "/api/overlap/runs",
    {
      bodyLimit: RUN_BODY_LIMIT,
      config: access,
      schema: {
        ...documented("startOverlapRun", "Start a run: step 1, your blinded points a·H(x)"),
        body: overlapRunStartSchema,
        response: {
          201: overlapRunSchema,
          ...errors,
          429: errorResponse("These two lists were compared less than 24 hours ago."),
        },
      },
    },
    async (request, reply) => {
      const run = await startRun(db, overlapCaller(request), request.body);
      // The partner's admins are asked by mail (when they want such mails).
      app.outbox.wake();
      return reply.code(201).send(run);
    },
  );

  r.get(
    "/api/overlap/runs/:id",
    {
      config: access,
      schema: {
        ...documented("getOverlapRun", "A run, with the points your next step needs"),
        params: idParamsSchema,
        response: { 200: overlapRunWorkSchema, ...errors },
      },
    },
    async (request) => runWork(db, overlapCaller(request).organizationId, request.params.id),
  );

  r.post(
    "/api/overlap/runs/:id/answer",
    {
      bodyLimit: RUN_BODY_LIMIT,
      config: access,
      schema: {
        ...documented("answerOverlapRun", "Step 2: b·(a·H(x)) and your own b·H(y)"),
        params: idParamsSchema,
        body: overlapRunAnswerSchema,
        response: { 200: overlapRunSchema, ...errors },
      },
    },
    async (request) => answerRun(db, overlapCaller(request), request.params.id, request.body),
  );

  r.post(
    "/api/overlap/runs/:id/complete",
    {
      bodyLimit: RUN_BODY_LIMIT,
      config: access,
      schema: {
        ...documented("completeOverlapRun", "Step 3: a·(b·H(y)); the result is kept, the points dropped"),
        params: idParamsSchema,
        body: overlapRunCompletionSchema,
        response: { 200: overlapRunSchema, ...errors },
      },
    },
    async (request) => completeRun(db, overlapCaller(request), request.params.id, request.body),
  );
}
