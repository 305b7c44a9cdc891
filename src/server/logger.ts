import type { FastifyServerOptions } from "fastify";

/** Query parameters that carry secrets (verification/reset/invitation links, signed links, keys). */
const SECRET_QUERY = /([?&](?:token|invite|sig|key|api_key|apiKey)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, "$1[REDACTED]");
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
            options: { translateTime: "HH:MM:ss", ignore: "pid,hostname" },
          },
        }
      : {}),
  };
}
