// Shared pieces of the benchmarks: autocannon runs, the bare baseline process and the result rows.
import { type ChildProcess, spawn } from "node:child_process";
import autocannon from "autocannon";

export type Row = {
  database: string;
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  ratio: string;
  target: string;
  ok: boolean;
};

export const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
export const rows: Row[] = [];

export function load(
  url: string,
  connections: number,
  options: { headers?: Record<string, string>; duration?: number } = {},
) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      { url, connections, duration: options.duration ?? DURATION_S, headers: options.headers ?? {} },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
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
