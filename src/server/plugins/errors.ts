import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError, RateLimitedError } from "../errors";

/** Fastify's own client errors keep their status, with a message a person can read. */
const CLIENT_ERROR_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: "The request body is not valid JSON",
  FST_ERR_CTP_EMPTY_JSON_BODY: "The request body is empty",
  FST_ERR_CTP_BODY_TOO_LARGE: "The request body is too large",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Unsupported media type",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "Invalid Content-Length",
};

/** The one place that shapes error responses (ARCHITECTURE §6, CONTRACT §2). */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error instanceof RateLimitedError) reply.header("Retry-After", String(error.retryAfterSeconds));
      return reply.code(error.statusCode).send({ message: error.message, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send({ message: error.validation[0]?.message ?? "Invalid request" });
    }
    const status = (error as FastifyError).statusCode;
    if (typeof status === "number" && status >= 400 && status < 500) {
      const code = (error as FastifyError).code;
      const message =
        (code && CLIENT_ERROR_MESSAGES[code]) ?? (error.validation ? error.message : "Bad request");
      return reply.code(status).send({ message });
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send({ message: "Internal Server Error" });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ message: `Route ${request.method} ${request.url.split("?")[0]} not found` });
  });
}
