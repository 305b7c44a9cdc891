// Shared pieces of the benchmarks: autocannon runs, the bare baseline process and the result rows.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
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
  /** The server's CPU time per request, beside the baseline's: what each answer costs. */
  cpu?: string;
  target: string;
  ok: boolean;
};

export const DURATION_S = Number(process.env.BENCH_SECONDS ?? 3);
/**
 * Baseline and target alternate this many times; the figures are the rounds' medians. Five: on a
 * shared two-core machine the same code's ratio moves by twenty points from one round to the next.
 */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
export const rows: Row[] = [];

/** A result row, printed as soon as it is measured: a long run shows its progress. */
export function record(row: Row) {
  rows.push(row);
  const figures = row.rps === undefined ? "" : ` ${row.rps}/s p99 ${row.p99} ms`;
  console.log(
    `${row.ok ? "ok  " : "MISS"} ${row.database} ${row.name}${row.connections ? ` ×${row.connections}` : ""}:${figures} ${row.ratio} (target ${row.target})`,
  );
}

/** The fields of autocannon's client that bound how many requests it sends (not in its types). */
type LimitedClient = { reqsMade: number; responseMax?: number } & {
  on(event: "done", listener: () => void): void;
};

/** An autocannon result with its rate: requests answered per second of the load. */
export type LoadResult = autocannon.Result & { rps: number };

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
    /** A new path for every request (new conversions rather than one repeated). */
    nextPath?: () => string;
    /** Headers of each request on top of `headers` (readers from many networks). */
    nextHeaders?: () => Record<string, string>;
  } = {},
): Promise<LoadResult> {
  const duration = options.duration ?? DURATION_S;
  const { nextPath, nextHeaders } = options;
  const clients: LimitedClient[] = [];
  let startedAt = 0;
  let lastDoneAt = 0;
  return new Promise<LoadResult>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        headers: options.headers ?? {},
        ...(nextPath || nextHeaders
          ? {
              requests: [
                {
                  setupRequest: (request) => ({
                    ...request,
                    ...(nextPath ? { path: nextPath() } : {}),
                    ...(nextHeaders ? { headers: { ...request.headers, ...nextHeaders() } } : {}),
                  }),
                },
              ],
            }
          : {}),
        // Draining: the run ends when the last connection is done, long before this deadline.
        duration: options.drain ? duration + 600 : duration,
        setupClient: (client) => {
          if (!options.drain) return;
          const limited = client as unknown as LimitedClient;
          clients.push(limited);
          limited.on("done", () => {
            lastDoneAt = performance.now();
          });
        },
      },
      (error, result) => {
        if (error) return reject(error);
        // autocannon's requests.average is the mean of its one-second samples. A drained run
        // ends with a sample of the few milliseconds of draining (or a second with nothing
        // left to do), which would count as a whole second's rate: the rate is taken over the
        // time the requests actually took instead.
        const seconds = options.drain ? (lastDoneAt - startedAt) / 1000 : result.duration;
        resolve(Object.assign(result, { rps: result.requests.total / Math.max(seconds, 0.001) }));
      },
    );
    instance.on("start", () => {
      startedAt = performance.now();
    });
    if (options.drain) {
      setTimeout(() => {
        // A client stops instead of sending its next request once it has made responseMax.
        for (const client of clients) client.responseMax = Math.max(1, client.reqsMade);
      }, duration * 1000);
    }
  });
}

/** CPU time (user and system) a process has used so far, in milliseconds; null off Linux. */
export function processCpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    // utime and stime, in clock ticks of 10 ms (USER_HZ is 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

const TASKSET = "/usr/bin/taskset";

/** The cores this process may run on, from a list such as "0-1" or "0,2-3". */
function allowedCores(): number[] {
  const list = /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? "";
  return list.split(",").flatMap((range) => {
    const [from, to = from] = range.split("-").map(Number);
    if (from === undefined || to === undefined || Number.isNaN(from) || Number.isNaN(to)) return [];
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

/**
 * With two cores the servers get one and the load generator the other, so a ratio compares
 * what a request costs the server rather than how the scheduler shared the cores out in that
 * round. Null where taskset or a second core is missing: everything then shares the machine.
 */
export const cores: { server: number; load: number } | null = (() => {
  if (process.env.BENCH_PIN === "0" || !existsSync(TASKSET)) return null;
  let allowed: number[] = [];
  try {
    allowed = allowedCores();
  } catch {}
  const [server, load] = allowed;
  return server === undefined || load === undefined ? null : { server, load };
})();

/** Puts a process and all its threads on one core (threads it starts later inherit it). */
function pin(pid: number, core: number) {
  execFileSync(TASKSET, ["--all-tasks", "--cpu-list", "--pid", String(core), String(pid)], {
    stdio: "ignore",
  });
}

export function pinServer(pid: number) {
  if (cores) pin(pid, cores.server);
}

/** This process is the load generator (autocannon runs in it). */
export function pinLoadGenerator() {
  if (cores) pin(process.pid, cores.load);
}

export async function startBaseline(json: string): Promise<{ origin: string; pid: number; stop(): void }> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "bench/baseline-server.ts"], {
    env: { ...process.env, BASELINE_JSON: json, PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const origin = await new Promise<string>((resolve) =>
    child.stdout?.once("data", (chunk) => resolve(String(chunk).trim())),
  );
  if (child.pid) pinServer(child.pid);
  return { origin, pid: child.pid ?? 0, stop: () => child.kill("SIGTERM") };
}

/** Busy and total CPU time of the whole machine so far (all cores), from /proc/stat. */
function cpuTimes(): { busy: number; total: number } | null {
  try {
    const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "")
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    // idle and iowait
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

const QUIET_SHARE = 0.15;
const QUIET_WAIT_MAX_MS = 60_000;

/**
 * Waits until the machine is quiet: the database still checkpointing after the last round, or
 * another tenant, would take CPU from whichever server is measured next and flatter or depress
 * its figure. Gives up after a minute (another tenant may never stop): false then.
 */
export async function waitForQuiet(): Promise<boolean> {
  const deadline = Date.now() + QUIET_WAIT_MAX_MS;
  let last = cpuTimes();
  if (!last) return true;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = cpuTimes();
    if (!now) return true;
    const share = (now.busy - last.busy) / Math.max(1, now.total - last.total);
    last = now;
    if (share < QUIET_SHARE) return true;
  }
  console.warn("bench: the machine did not become quiet within a minute; measuring anyway");
  return false;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export type Comparison = {
  rps: number;
  baseRps: number;
  ratio: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  threeXX: number;
  twoXX: number;
  /** Server CPU µs per request (medians), when the processes were given (PostgreSQL's not counted). */
  cpuUs: { target: number; base: number } | null;
};

/**
 * The baseline and the target, one after the other, ROUNDS times: the machine's speed drifts
 * (other tenants, CPU boost), so a ratio is taken within each round and the median reported.
 */
export async function compare(
  baseUrl: string,
  targetUrl: string,
  connections: number,
  options: {
    headers?: Record<string, string>;
    drain?: boolean;
    nextPath?: () => string;
    nextHeaders?: () => Record<string, string>;
    /** The two server processes, to report the CPU time each spends per request. */
    pids?: { base: number; target: number };
  } = {},
): Promise<Comparison> {
  type Round = { base: LoadResult; result: LoadResult; cpu: Cpu | null };
  type Cpu = { base: number; target: number };
  const rounds: Round[] = [];
  const cpuOf = (pid: number | undefined) => (pid ? processCpuMs(pid) : null);
  const perRequest = (from: number | null, to: number | null, result: LoadResult) =>
    from === null || to === null ? null : ((to - from) * 1000) / Math.max(1, result.requests.total);
  for (let i = 0; i < ROUNDS; i++) {
    await waitForQuiet();
    const baseStart = cpuOf(options.pids?.base);
    // The same requests for both, made the same way: the headers, and the paths when they vary.
    const base = await load(baseUrl, connections, {
      headers: options.headers,
      nextPath: options.nextPath,
      nextHeaders: options.nextHeaders,
    });
    const baseCpu = perRequest(baseStart, cpuOf(options.pids?.base), base);
    await waitForQuiet();
    const start = cpuOf(options.pids?.target);
    const result = await load(targetUrl, connections, options);
    const during = perRequest(start, cpuOf(options.pids?.target), result);
    const cpu = baseCpu !== null && during !== null ? { base: baseCpu, target: during } : null;
    rounds.push({ base, result, cpu });
  }
  const sum = (pick: (r: LoadResult) => number) => rounds.reduce((n, r) => n + pick(r.result), 0);
  const cpus = rounds.map((r) => r.cpu).filter((cpu) => cpu !== null);
  return {
    rps: Math.round(median(rounds.map((r) => r.result.rps))),
    baseRps: Math.round(median(rounds.map((r) => r.base.rps))),
    ratio: median(rounds.map((r) => ratio(r.result, r.base))),
    p50: median(rounds.map((r) => r.result.latency.p50)),
    p99: median(rounds.map((r) => r.result.latency.p99)),
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
    threeXX: sum((r) => r["3xx"]),
    twoXX: sum((r) => r["2xx"]),
    cpuUs:
      cpus.length === rounds.length
        ? {
            target: median(cpus.map((cpu) => cpu.target)),
            base: median(cpus.map((cpu) => cpu.base)),
          }
        : null,
  };
}

export function ratio(result: LoadResult, base: LoadResult) {
  return result.rps / base.rps;
}

export function describeRatio(result: LoadResult, base: LoadResult, label: string) {
  return `${(ratio(result, base) * 100).toFixed(1)} % of ${label} (${Math.round(base.rps)}/s)`;
}
