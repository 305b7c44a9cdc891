// A steady stream of clicks on a short link from a few concurrent readers, every answer kept with
// its time, so a test can say what was answered before, during and after a fault.
import { query } from "../local-servers";
import { browserAgent, clickIdOf } from "./partners";

export type Answer = {
  /** When the answer (or the failure) arrived, ms since epoch. */
  at: number;
  /** How long it took, in ms. */
  ms: number;
  /** The HTTP status, or 0 when no answer came (connection refused or reset, timeout). */
  status: number;
  clickId: string | null;
  /** The server HAProxy chose (x-served-by), when behind it. */
  servedBy: string | null;
  /** For errors: the body's message, or the network error. */
  message?: string;
  /** The Retry-After header, when there is one. */
  retryAfter?: string | null;
};

export type ClickLoad = {
  answers: Answer[];
  /** The click ids of every 302 so far. */
  redirectedIds(): string[];
  /** Waits until an answer matching `predicate` arrives after now; its time. */
  waitForAnswer(what: string, predicate: (answer: Answer) => boolean, timeoutMs?: number): Promise<Answer>;
  stop(): Promise<void>;
};

/**
 * `concurrency` loops, each opening `url` again as soon as its previous answer is in. Each request
 * has a user agent of its own, so every click is a new visitor (not a repeat of the last one).
 */
export function startClickLoad(url: string, options: { concurrency?: number; tag?: string } = {}): ClickLoad {
  const answers: Answer[] = [];
  const waiters = new Set<(answer: Answer) => void>();
  let running = true;
  const record = (answer: Answer) => {
    answers.push(answer);
    for (const waiter of waiters) waiter(answer);
  };

  async function loop(worker: number) {
    for (let i = 0; running; i++) {
      const sent = Date.now();
      try {
        const response = await fetch(url, {
          redirect: "manual",
          headers: { "user-agent": browserAgent(`${options.tag ?? "load"}-${worker}-${i}`) },
          signal: AbortSignal.timeout(10_000),
        });
        const body = await response.text();
        record({
          at: Date.now(),
          ms: Date.now() - sent,
          status: response.status,
          clickId: response.status === 302 ? clickIdOf(response) : null,
          servedBy: response.headers.get("x-served-by"),
          message: response.status >= 400 ? body.slice(0, 1000) : undefined,
          retryAfter: response.headers.get("retry-after"),
        });
      } catch (error) {
        record({
          at: Date.now(),
          ms: Date.now() - sent,
          status: 0,
          clickId: null,
          servedBy: null,
          message: String(error),
        });
        // Nothing listens (a killed server): do not spin.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }
  const loops = Array.from({ length: options.concurrency ?? 6 }, (_, worker) => loop(worker));

  return {
    answers,
    redirectedIds: () => answers.flatMap((answer) => (answer.clickId ? [answer.clickId] : [])),
    waitForAnswer(what, predicate, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const waiter = (answer: Answer) => {
          if (!predicate(answer)) return;
          waiters.delete(waiter);
          clearTimeout(timer);
          resolve(answer);
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(answers.at(-1))})`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Answers counted by status, e.g. { 302: 812, 503: 40 }, for the test's printed figures. */
export function countByStatus(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

/** The ids among `ids` that have no row in click_events. */
export async function missingClickIds(databaseUrl: string, ids: string[]): Promise<string[]> {
  const rows = await query<{ id: string }>(
    databaseUrl,
    "select id from click_events where id = any($1::text[])",
    [ids],
  );
  const stored = new Set(rows.map((row) => row.id));
  return ids.filter((id) => !stored.has(id));
}
