import type { FastifyBaseLogger } from "fastify";
import { describeUnavailable, isDatabaseUnavailable } from "../db/database-unavailable";
import { type Backoff, backoffDelay } from "../lib/backoff";

/** starting → ready → draining (SIGTERM: /readyz says no while requests are still served). */
export type LifecycleState = "starting" | "ready" | "draining";

/** One piece of start-up work; it may run again after the database was unreachable. */
export type StartUpStep = { name: string; run: () => Promise<unknown> };

const DEFAULT_RETRY: Backoff = { firstMs: 250, maxMs: 5_000 };

/** Start-up was cut short because the app is closing: not a failure to report. */
export class StartUpAborted extends Error {
  constructor() {
    super("closed before start-up finished");
  }
}

/**
 * The instance's state, decorated on the app as `app.lifecycle`. The server listens before
 * start-up (migrations, seeds) runs, so a balancer sees it alive at once and ready only later.
 */
export class Lifecycle {
  state: LifecycleState = "starting";
  /**
   * True once start-up has finished. Routes other than the health checks answer only then; a
   * plain field, because every request of every route reads it.
   */
  serving = false;
  /**
   * Settles when start-up does: main.ts logs that Buddy is running, tests start sending requests.
   * Rejects when a step fails for another reason than an unreachable database, or on close.
   */
  readonly started: Promise<void>;
  #settle!: { resolve: () => void; reject: (error: unknown) => void };
  #launched = false;
  #stopped = false;
  #wake: (() => void) | undefined;
  #log: FastifyBaseLogger;
  #retry: Backoff;

  constructor(log: FastifyBaseLogger, retry: Backoff = DEFAULT_RETRY) {
    this.#log = log;
    this.#retry = retry;
    this.started = new Promise<void>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    // Whoever awaits `started` sees a failure; nobody awaiting it is no crash.
    this.started.catch(() => {});
  }

  /** Runs the steps in order in the background (from onReady, so after listen has begun). */
  start(steps: readonly StartUpStep[]): void {
    if (this.#launched) return;
    this.#launched = true;
    this.#run(steps).then(this.#settle.resolve, this.#settle.reject);
  }

  /** From SIGTERM on: /readyz answers 503 so a balancer stops sending, everything else still answers. */
  drain(): void {
    this.state = "draining";
  }

  /** The app is closing: start-up stops waiting for the database. */
  stop(): void {
    this.#stopped = true;
    this.#wake?.();
  }

  async #run(steps: readonly StartUpStep[]) {
    for (const step of steps) await this.#retrying(step);
    if (this.#stopped) throw new StartUpAborted();
    if (this.state === "starting") this.state = "ready";
    this.serving = true;
  }

  /** PostgreSQL may start after us (a container platform starts both at once): wait for it. */
  async #retrying(step: StartUpStep) {
    for (let retry = 0; ; retry++) {
      if (this.#stopped) throw new StartUpAborted();
      try {
        return await step.run();
      } catch (error) {
        if (this.#stopped) throw new StartUpAborted();
        if (!isDatabaseUnavailable(error)) {
          throw new Error(`start-up failed (${step.name}): ${(error as Error).message}`, { cause: error });
        }
        const delayMs = backoffDelay(retry, this.#retry);
        this.#log.warn(
          { step: step.name, reason: describeUnavailable(error), retryInMs: delayMs },
          "waiting for the database: it cannot be reached yet",
        );
        await this.#sleep(delayMs);
      }
    }
  }

  #sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
