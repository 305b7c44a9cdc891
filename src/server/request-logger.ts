import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";
import type { Bindings, ChildLoggerOptions, LogFn } from "pino";

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

  #write(level: Level, args: Parameters<LogFn>) {
    if (this.#child === null && (this.#parent.levels?.values[level] ?? Infinity) < this.#threshold) return;
    (this.#real()[level] as (...values: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }
  set level(level: string) {
    this.#real().level = level;
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
