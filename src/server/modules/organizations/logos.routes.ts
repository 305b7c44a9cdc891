import multipart, { type MultipartFile } from "@fastify/multipart";
import { errorBodySchema } from "@shared/http";
import { LOGO_MAX_BYTES, LOGO_TOO_LARGE, organizationSchema } from "@shared/organizations";
import { text } from "@shared/text";
import { normalizeWebsite } from "@shared/website";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, badRequest, notFound } from "../../errors";
import { requireMember } from "../../plugins/auth";
import { findLogoByDomain, normalizeLogo, saveLogo } from "./logos.service";
import { getOrganization, toOrganization } from "./organizations.service";

/**
 * The uploaded logo's bytes. Reading the upload is parsing what the client sent: a body cut short
 * or malformed (busboy's errors carry no status) is the client's 400, never our 500.
 */
async function readLogoUpload(request: FastifyRequest): Promise<Buffer> {
  let file: MultipartFile | undefined;
  try {
    file = await request.file();
    if (file?.fieldname === "logo") return await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE")
      throw new AppError(413, LOGO_TOO_LARGE);
    if (error instanceof AppError || (error as { statusCode?: number }).statusCode) throw error;
    throw badRequest("The upload is not a valid multipart/form-data body");
  }
  throw badRequest("Choose a logo file to upload");
}

export async function logosRoutes(app: FastifyInstance) {
  await app.register(multipart, { limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 0, parts: 2 } });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/api/organization/logo",
    {
      config: { access: "admin" },
      schema: {
        response: {
          200: organizationSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          413: errorBodySchema,
          415: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { organizationId } = requireMember(request);
      if (!request.isMultipart()) {
        throw new AppError(415, "Upload the logo as multipart/form-data in a field named logo");
      }
      await saveLogo(app.db, organizationId, await normalizeLogo(await readLogoUpload(request)));
      return toOrganization(await getOrganization(app.db, organizationId));
    },
  );

  r.get(
    "/api/logos/:file",
    {
      config: { access: "public" },
      schema: {
        params: z.object({ file: text("Logo file", { trim: false }).max(300) }),
        querystring: z.object({ v: text("v", { trim: false }).max(40).optional() }),
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      if (!file.endsWith(".jpg")) throw notFound("Logo not found");
      const logo = await findLogoByDomain(app.db, normalizeWebsite(file.slice(0, -4)));
      if (!logo) throw notFound("Logo not found");
      const etag = `"${logo.id}-${logo.version}"`;
      // A versioned URL never changes; the bare one is re-checked every few minutes.
      reply.header(
        "Cache-Control",
        request.query.v ? "public, max-age=31536000, immutable" : "public, max-age=300, must-revalidate",
      );
      reply.header("ETag", etag);
      // Logos are shown in other sites' pages and in e-mails.
      reply.header("Cross-Origin-Resource-Policy", "cross-origin");
      if (request.headers["if-none-match"] === etag) return reply.code(304).send();
      return reply.type("image/jpeg").send(logo.image);
    },
  );
}
