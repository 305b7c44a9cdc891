import type { FastifyServerOptions } from "fastify";
import pino from "pino";

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

/**
 * JSON lines leave in writes of 8 KB (half of sonic-boom's largest), or within a quarter of a
 * second when fewer come: each write is a hop to libuv's thread pool and wakes whoever reads the
 * pipe, which cost a busy route more than making its lines. pino writes what is left when the
 * process exits, after an error too; a process killed outright loses that last quarter second. At
 * debug and trace every line goes out at once, as someone is watching.
 */
const LOG_WRITE_BYTES = 8 * 1024;
const LOG_FLUSH_MS = 250;

function jsonLines(level: string) {
  const watched = level === "debug" || level === "trace";
  return pino.destination({
    dest: 1,
    sync: false,
    minLength: watched ? 0 : LOG_WRITE_BYTES,
    periodicFlush: watched ? 0 : LOG_FLUSH_MS,
  });
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
      : { stream: jsonLines(level) }),
  };
}
