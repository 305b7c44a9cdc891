// Shared pieces of the benchmarks: autocannon runs, the bare baseline process and the result rows.
import { type ChildProcess, spawn } from "node:child_process";
import autocannon from "autocannon";

export type Row = {
  database: string;
  name: string;
  /** Left out by rows that check a count rather than time a load. */
  connections?: number;
  rps?: number;
  p50?: number;
  p99?: number;
  ratio: string;
  target: string;
  ok: boolean;
};

export const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
export const rows: Row[] = [];

/** The fields of autocannon's client that bound how many requests it sends (not in its types). */
type LimitedClient = { reqsMade: number; responseMax?: number };

export function load(
  url: string,
  connections: number,
  options: {
    headers?: Record<string, string>;
    duration?: number;
    /**
     * At the deadline autocannon drops the requests still in flight, though the server may have
     * acted on them (a stored click) and sends their answers to a closed socket. Draining lets each
     * connection finish its last request instead, so every request sent has its answer counted.
     */
    drain?: boolean;
  } = {},
) {
  const duration = options.duration ?? DURATION_S;
  const clients: LimitedClient[] = [];
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        headers: options.headers ?? {},
        // Draining: the run ends when the last connection is done, long before this deadline.
        duration: options.drain ? duration + 600 : duration,
        setupClient: (client) => {
          if (options.drain) clients.push(client as unknown as LimitedClient);
        },
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (options.drain) {
      setTimeout(() => {
        // A client stops instead of sending its next request once it has made responseMax.
        for (const client of clients) client.responseMax = Math.max(1, client.reqsMade);
      }, duration * 1000);
    }
  });
}

export async function startBaseline(json: string): Promise<{ origin: string; stop(): void }> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "bench/baseline-server.ts"], {
    env: { ...process.env, BASELINE_JSON: json, PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const origin = await new Promise<string>((resolve) =>
    child.stdout?.once("data", (chunk) => resolve(String(chunk).trim())),
  );
  return { origin, stop: () => child.kill("SIGTERM") };
}

export function ratio(result: autocannon.Result, base: autocannon.Result) {
  return result.requests.average / base.requests.average;
}

export function describeRatio(result: autocannon.Result, base: autocannon.Result, label: string) {
  return `${(ratio(result, base) * 100).toFixed(1)} % of ${label} (${Math.round(base.requests.average)}/s)`;
}
