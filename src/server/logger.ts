import type { FastifyServerOptions } from "fastify";
import pino from "pino";

type SonicBoom = ReturnType<typeof pino.destination>;

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
 * JSON lines leave in writes of 64 KB, or within a quarter of a second when fewer come: each write
 * is a hop to libuv's thread pool and wakes whoever reads the pipe, which cost a busy route more
 * than making its lines (bench/README.md). pino writes what is left when the process exits, after
 * an error too; a process killed outright loses that last quarter second. At debug and trace every
 * line goes out at once, as someone is watching.
 */
const LOG_WRITE_BYTES = 64 * 1024;
const LOG_FLUSH_MS = 250;
/**
 * A reader that stops reading (a stuck log collector) must not stop the server or fill its memory:
 * lines beyond this much waiting are dropped, and the writes go on when the pipe drains.
 */
const LOG_PENDING_MAX_BYTES = 16 * 1024 * 1024;

type LineDestination = Pick<SonicBoom, "write" | "flush" | "flushSync" | "end">;

/**
 * sonic-boom's text mode appends each line to one pending string and measures that string's UTF-8
 * length again on every line, which grows with the buffer; in its buffer mode it keeps a list of
 * encoded lines and their lengths. pino hands over text, so each line is encoded here on its way
 * in. The destination itself stays pino's: its exit handler flushes it.
 */
export function encodedLines(destination: SonicBoom): LineDestination {
  return {
    // Typed for text, but in buffer mode it takes (and must be given) a Buffer.
    write: (line: string) => destination.write(Buffer.from(line) as unknown as string),
    flush: (callback) => destination.flush(callback),
    flushSync: () => destination.flushSync(),
    end: () => destination.end(),
  };
}

function jsonLines(level: string): LineDestination {
  const watched = level === "debug" || level === "trace";
  return encodedLines(
    pino.destination({
      dest: 1,
      sync: false,
      minLength: watched ? 0 : LOG_WRITE_BYTES,
      maxWrite: 2 * LOG_WRITE_BYTES,
      maxLength: LOG_PENDING_MAX_BYTES,
      periodicFlush: watched ? 0 : LOG_FLUSH_MS,
      contentMode: "buffer",
    }),
  );
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
