import { type Server, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { isConcurrencyRollback } from "../db/concurrency-rollback";
import { describeUnavailable, isDatabaseUnavailable } from "../db/database-unavailable";
import { AppError, RateLimitedError } from "../errors";
import { wrapRequestListener } from "./request-listener";

export const UNAVAILABLE_MESSAGE = "The service is temporarily unavailable; try again shortly.";

/** Fastify's own client errors keep their status, with a message a person can read. */
const CLIENT_ERROR_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: "The request body is not valid JSON",
  FST_ERR_CTP_EMPTY_JSON_BODY: "The request body is empty",
  FST_ERR_CTP_BODY_TOO_LARGE: "The request body is too large",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Unsupported media type",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "Invalid Content-Length",
  FST_ERR_BAD_URL: "The request path is not validly encoded",
  FST_ERR_MAX_PARAM_LENGTH: "The request path is too long",
};
/** For client errors of a code not listed above (a plugin's own, say), by status. */
const STATUS_MESSAGES: Record<number, string> = {
  413: CLIENT_ERROR_MESSAGES.FST_ERR_CTP_BODY_TOO_LARGE as string,
  415: CLIENT_ERROR_MESSAGES.FST_ERR_CTP_INVALID_MEDIA_TYPE as string,
};

function clientErrorMessage(error: FastifyError, status: number): string {
  if (error.code && CLIENT_ERROR_MESSAGES[error.code]) return CLIENT_ERROR_MESSAGES[error.code] as string;
  if (error.validation) return error.message;
  return STATUS_MESSAGES[status] ?? "Bad request";
}

/**
 * What describes a body rather than the answer: an error's `{message}` is JSON of its own, whatever
 * a route had set up for the body it meant to send (a CSV's type and attachment name, the
 * compression of a stream).
 */
const REPRESENTATION_HEADERS = ["content-type", "content-disposition", "content-encoding", "content-length"];

/**
 * Forgets the representation a failed answer had set. A stream handed to Fastify has its headers
 * copied onto the raw response at once, before its first byte, and a stream that fails before
 * sending any still reaches this handler: without this, its `{message}` would go out as
 * `text/csv`, an attachment, and `br` that it is not.
 */
function forgetRepresentation(reply: FastifyReply) {
  if (reply.raw.headersSent) return;
  for (const name of REPRESENTATION_HEADERS) reply.removeHeader(name);
}

/** The one place that shapes error responses (ARCHITECTURE §6, CONTRACT §2). */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    forgetRepresentation(reply);
    if (error instanceof AppError) {
      if (error instanceof RateLimitedError) reply.header("Retry-After", String(error.retryAfterSeconds));
      return reply.code(error.statusCode).send({ message: error.message, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send({ message: error.validation[0]?.message ?? "Invalid request" });
    }
    const status = (error as FastifyError).statusCode;
    if (typeof status === "number" && status >= 400 && status < 500) {
      return reply.code(status).send({ message: clientErrorMessage(error as FastifyError, status) });
    }
    // The database is down or restarting, or PostgreSQL undid the statement for a concurrent
    // transaction (a deadlock's victim, after any retry of its own): nothing is wrong with the
    // request or the code, and a retry can succeed. One line per request, without a stack: an
    // outage makes thousands.
    const retryable = isDatabaseUnavailable(error)
      ? "database unavailable"
      : isConcurrencyRollback(error)
        ? "rolled back for a concurrent transaction"
        : null;
    if (retryable) {
      request.log.warn({ reason: describeUnavailable(error) }, `${retryable}: answered 503`);
      return reply.code(503).header("Retry-After", "1").send({ message: UNAVAILABLE_MESSAGE });
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send({ message: "Internal Server Error" });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ message: `Route ${request.method} ${request.url.split("?")[0]} not found` });
  });
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route or the error handler is
 * reached (a path that does not decode, 400; a path parameter over `maxParamLength`, 414), in the
 * contract's `{message}` rather than Fastify's `{error, code, message, statusCode}`.
 *
 * `notFoundUnder` maps a path prefix under which every path names a resource or nothing (the short
 * links' `/s/`) to its not-found message: there such a path names nothing, and answers 404 like any
 * other unknown one rather than telling its encoding apart.
 */
export function frameworkErrorAnswer(notFoundUnder: Readonly<Record<string, string>> = {}) {
  const notFound = Object.entries(notFoundUnder);
  return function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, "unhandled error");
      return reply.code(500).send({ message: "Internal Server Error" });
    }
    const under = notFound.find(([prefix]) => request.url.startsWith(prefix));
    if (under) return reply.code(404).send({ message: under[1] });
    return reply.code(status).send({ message: clientErrorMessage(error, status) });
  };
}

const CONNECTION_ERRORS: Record<string, { status: number; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: "The request took too long to arrive" },
  HPE_HEADER_OVERFLOW: { status: 431, message: "The request headers are too large" },
};

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refuses these before there is a request at
 * all (headers over Node's limit, a malformed request line), so the answer is written on the
 * socket by hand — as Fastify's default does, with the contract's `{message}` body.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
  // A reset connection has nobody left to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const { status, message } = CONNECTION_ERRORS[error.code ?? ""] ?? { status: 400, message: "Bad request" };
  const body = JSON.stringify({ message });
  this.log.trace({ err: error }, "client error");
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

const NO_HOST_BODY = JSON.stringify({ message: "The request has no Host header" });
const NO_HOST_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "content-length": Buffer.byteLength(NO_HOST_BODY),
  connection: "close",
};

/**
 * Node refuses an HTTP/1.1 request without a Host header (RFC 9112 §3.2) itself, with an empty
 * 400, before any listener or Fastify hook is reached. Here `server` leaves that refusal to its
 * request listener — Fastify's, the only one yet — wrapped to make it with the contract's
 * `{message}`. Each request pays the comparison Node made, and no hook.
 */
export function answerMissingHost(server: Server) {
  wrapRequestListener(server, (route) => (request, response) => {
    if (
      request.headers.host !== undefined ||
      request.httpVersionMinor !== 1 ||
      request.httpVersionMajor !== 1
    )
      return route(request, response);
    response.writeHead(400, NO_HOST_HEADERS).end(NO_HOST_BODY);
  });
  // Not an option passed to Fastify: a server it adds for another address of HOST (as for
  // "localhost") would get it too, without the wrapper, and serve such requests.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
}
