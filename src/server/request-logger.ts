import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from "fastify";
import type { Bindings, ChildLoggerOptions, LogFn, Logger } from "pino";
import { redactUrl } from "./logger";

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace";
type PinoLike = FastifyBaseLogger & { levels?: { values: Record<string, number> }; levelVal?: number };

/**
 * A request's logger, made on its first enabled line. Fastify gives every request a pino child
 * (bound to its request id, at the route's level); building one, and rebuilding its methods for
 * a route-level log level, costs more than answering a tracked-link redirect. Most requests log
 * nothing at the configured level, so most never build it.
 */
class LazyRequestLogger {
  #parent: PinoLike;
  #bindings: Bindings;
  #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | null = null;
  #threshold: number;

  constructor(parent: PinoLike, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
    const values = parent.levels?.values ?? {};
    this.#threshold = (options.level ? values[options.level] : parent.levelVal) ?? 0;
  }

  #real(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  isLevelEnabled(level: Level): boolean {
    return (this.#parent.levels?.values[level] ?? Infinity) >= this.#threshold;
  }

  #write(level: Level, args: Parameters<LogFn>) {
    if (this.#child === null && !this.isLevelEnabled(level)) return;
    (this.#real()[level] as (...values: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }
  set level(level: string) {
    this.#real().level = level;
    this.#threshold = this.#parent.levels?.values[level] ?? this.#threshold;
  }
  fatal(...args: Parameters<LogFn>) {
    this.#write("fatal", args);
  }
  error(...args: Parameters<LogFn>) {
    this.#write("error", args);
  }
  warn(...args: Parameters<LogFn>) {
    this.#write("warn", args);
  }
  info(...args: Parameters<LogFn>) {
    this.#write("info", args);
  }
  debug(...args: Parameters<LogFn>) {
    this.#write("debug", args);
  }
  trace(...args: Parameters<LogFn>) {
    this.#write("trace", args);
  }
  silent() {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }
}

export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions["childLoggerFactory"]> = (
  logger,
  bindings,
  options,
) => new LazyRequestLogger(logger as PinoLike, bindings, options) as unknown as FastifyBaseLogger;

/** Whether a line at this level would be written: what it would say then need not be made. */
function writes(log: FastifyBaseLogger, level: Level): boolean {
  return (log as Partial<Pick<Logger, "isLevelEnabled">>).isLevelEnabled?.(level) ?? false;
}

/**
 * One line per request, written when its answer is complete: Fastify's own pair ("incoming
 * request", then "request completed") cost a busy route two writes, and the first says nothing the
 * second cannot. The route is its pattern, so ids and queries stay out of the log; only a request
 * no route matched carries its (redacted) URL. Routes with a quieter `logLevel` write none, and
 * every other line Fastify writes (errors, 404s, aborted streams) is its own.
 */
export class OneLinePerRequest extends LogController {
  /**
   * The request lines' own logger: no child per request (the id is a field of the line), and no
   * redaction, whose wildcard paths cost each line more than writing it. The line holds only
   * what is made here, the redacted URL included.
   */
  #lines: FastifyBaseLogger | undefined;

  /** At debug, to find a request that never completes: the only kind that would go unlogged. */
  override incomingRequest(request: FastifyRequest) {
    if (!writes(request.log, "debug")) return;
    request.log.debug({ method: request.method, url: redactUrl(request.url) }, "incoming request");
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (this.isLogDisabled(request) || !(error || writes(reply.log, "info"))) return;
    const route = request.routeOptions.url;
    const url = route === undefined ? redactUrl(request.url) : undefined;
    const responseTime = Math.round(reply.elapsedTime * 100) / 100;
    if (error) {
      const line = {
        method: request.method,
        route,
        url,
        statusCode: reply.statusCode,
        responseTime,
        err: error,
      };
      reply.log.error(line, "request errored");
      return;
    }
    this.#lines ??= request.server.log.child({}, { redact: [] });
    this.#lines.info(
      {
        [this.requestIdLogLabel]: request.id,
        method: request.method,
        route,
        url,
        statusCode: reply.statusCode,
        responseTime,
      },
      "request completed",
    );
  }
}
