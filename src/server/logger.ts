import type { FastifyServerOptions } from "fastify";

/** Query parameters that carry secrets (verification/reset/invitation links, signed links, keys). */
const SECRET_QUERY = /([?&](?:token|invite|sig|key|api_key|apiKey)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, "$1[REDACTED]");
}

/**
 * LOG_FORMAT when set; otherwise readable lines for a person at a terminal and one JSON object a
 * line for anything else (a file, a pipe, a log collector).
 */
export function prettyLogs(format: "pretty" | "json" | undefined, stdoutIsTTY: boolean | undefined): boolean {
  return format === undefined ? Boolean(stdoutIsTTY) : format === "pretty";
}

/** pino options: request logs without bearer tokens, API keys, cookies or secrets in URLs. */
export function loggerOptions(level: string, pretty: boolean): FastifyServerOptions["logger"] {
  return {
    level,
    redact: {
      paths: [
        "req.headers.authorization",
        'req.headers["x-api-key"]',
        "req.headers.cookie",
        "*.password",
        "*.token",
        "*.passwordHash",
      ],
      censor: "[REDACTED]",
    },
    serializers: {
      req(request) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
        };
      },
    },
    ...(pretty
      ? {
          transport: {
            target: "pino-pretty",
            // A mail's links are already in its message, each on a line of its own: the copy in
            // the object is for JSON readers.
            options: { translateTime: "HH:MM:ss", ignore: "pid,hostname,mail.links" },
          },
        }
      : {}),
  };
}
