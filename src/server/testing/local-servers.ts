// Servers a process test owns: its own PostgreSQL, Redis and HAProxy, each in a temporary folder
// on a free port, so a test can stop and start them without touching the machine's shared
// PostgreSQL (5432) and Redis (6379), which other tests use.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import pg from "pg";
import { freePort } from "./buddy-process";

/** A child ended by a signal has a signalCode and no exitCode. */
const alive = (child: ChildProcess | undefined): boolean =>
  child !== undefined && child.exitCode === null && child.signalCode === null;

/** Polls `ready` until it holds, or throws after `timeoutMs` naming `what`. */
export async function waitFor(
  what: string,
  ready: () => Promise<boolean> | boolean,
  timeoutMs = 15_000,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await ready()) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}

/** Runs a command to its exit (not to the end of its output: pg_ctl leaves a daemon behind). */
function run(
  command: string,
  args: string[],
  options: { user?: string; timeoutMs?: number } = {},
): Promise<string> {
  // initdb and postgres refuse to run as root: as root, run them as the postgres system user.
  const [file, argv] =
    options.user && process.getuid?.() === 0
      ? ["runuser", ["-u", options.user, "--", command, ...args]]
      : [command, args];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${path.basename(command)} ${args.join(" ")}: ${code ?? signal}\n${output}`));
    });
  });
}

/** Debian installs each major version under /usr/lib/postgresql/<major>/bin: the newest. */
function postgresBinDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(path.join(root, name, "bin/initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0])
    throw new Error(`no PostgreSQL server binaries under ${root} (apt-get install postgresql)`);
  return path.join(root, versions[0], "bin");
}

export type LocalPostgres = {
  /** postgres://postgres@127.0.0.1:<port>/postgres, trust auth. */
  url: string;
  port: number;
  /** immediate: like a crash (no checkpoint, connections cut); fast: a clean shutdown. */
  stop(options?: { mode?: "fast" | "immediate" }): Promise<void>;
  /** Starts again on the same port and data folder (nothing to do if it runs). */
  start(): Promise<void>;
  /** Stops the server if it runs and deletes its folder. */
  destroy(): Promise<void>;
};

const cleanups = new Set<() => void>();
// A test run that dies between start and afterAll must not leave daemons behind.
process.once("exit", () => {
  for (const cleanup of cleanups) cleanup();
});

export async function startLocalPostgres(): Promise<LocalPostgres> {
  const bin = postgresBinDir();
  const folder = mkdtempSync(path.join(tmpdir(), "buddy-pg-"));
  const dataDir = path.join(folder, "data");
  const user = "postgres";
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresUser();
    chownSync(folder, uid, gid);
  }
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  // --no-sync and fsync=off: the data is thrown away; nothing here is about surviving a power cut.
  await run(
    path.join(bin, "initdb"),
    ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"],
    { user },
  );
  const pgCtl = (...args: string[]) =>
    run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-w", "-t", "30", ...args], { user });
  let running = false;
  const stopNow = () => {
    if (!running) return;
    running = false;
    const args = ["-D", dataDir, "-m", "immediate", "-w", "stop"];
    if (process.getuid?.() === 0) spawnSync("runuser", ["-u", user, "--", path.join(bin, "pg_ctl"), ...args]);
    else spawnSync(path.join(bin, "pg_ctl"), args);
  };
  cleanups.add(stopNow);

  const server: LocalPostgres = {
    url,
    port,
    async start() {
      if (running) return;
      // Counted as running from the first try, so a start that fails half-way is still stopped.
      running = true;
      await pgCtl(
        "-l",
        path.join(folder, "postgres.log"),
        "-o",
        // The socket goes in our folder too: /var/run/postgresql belongs to the shared server.
        `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`,
        "start",
      );
      await waitFor(`PostgreSQL on port ${port}`, async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.end();
        return true;
      });
    },
    async stop({ mode = "fast" } = {}) {
      if (!running) return;
      await pgCtl("-m", mode, "stop");
      running = false;
    },
    async destroy() {
      try {
        await server.stop({ mode: "immediate" });
      } catch {
        stopNow();
      }
      cleanups.delete(stopNow);
      rmSync(folder, { recursive: true, force: true });
    },
  };
  try {
    await server.start();
  } catch (error) {
    await server.destroy();
    throw error;
  }
  return server;
}

function postgresUser(): { uid: number; gid: number } {
  const result = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const group = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (result.status !== 0) throw new Error("no postgres system user (apt-get install postgresql)");
  return { uid: Number(result.stdout.trim()), gid: Number(group.stdout.trim()) };
}

/** Runs one statement on a fresh connection (the pool of a test would outlive a stopped server). */
export async function query<T extends pg.QueryResultRow>(
  url: string,
  statement: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(statement, values)).rows;
  } finally {
    await client.end();
  }
}

export type LocalRedis = {
  url: string;
  port: number;
  /** Kills the server: with no persistence, it starts again empty. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Keys held now (DBSIZE). */
  dbSize(): Promise<number>;
  /** The keys held now (KEYS: this server is the test's own and small). */
  keys(): Promise<string[]>;
  destroy(): Promise<void>;
};

export async function startLocalRedis(): Promise<LocalRedis> {
  const folder = mkdtempSync(path.join(tmpdir(), "buddy-redis-"));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const killNow = () => child?.kill("SIGKILL");
  cleanups.add(killNow);

  async function ask<T>(fn: (client: Redis) => Promise<T>): Promise<T> {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on("error", () => {});
    try {
      await client.connect();
      return await fn(client);
    } finally {
      client.disconnect();
    }
  }

  const server: LocalRedis = {
    url,
    port,
    async start() {
      if (alive(child)) return;
      const started = spawn(
        "redis-server",
        [
          ...["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
          ...["--daemonize", "no", "--dir", folder, "--logfile", path.join(folder, "redis.log")],
        ],
        { stdio: "ignore" },
      );
      child = started;
      await waitFor(`Redis on port ${port}`, async () => {
        if (!alive(started))
          throw new Error(`redis-server exited with ${started.exitCode ?? started.signalCode}`);
        return (await ask((client) => client.ping())) === "PONG";
      });
    },
    async stop() {
      const running = child;
      if (!running || !alive(running)) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGKILL");
      await exited;
    },
    dbSize: () => ask((client) => client.dbsize()),
    keys: () => ask((client) => client.keys("*")),
    async destroy() {
      await server.stop();
      cleanups.delete(killNow);
      rmSync(folder, { recursive: true, force: true });
    },
  };
  try {
    await server.start();
  } catch (error) {
    await server.destroy();
    throw error;
  }
  return server;
}

export const HAPROXY = "/usr/sbin/haproxy";
export const haproxyInstalled = () => existsSync(HAPROXY);

export type Backend = { name: string; port: number };
export type ServerState = { status: string; checkStatus: string };

export type Haproxy = {
  origin: string;
  port: number;
  /** Each backend server's state from the stats socket: status UP, DOWN, "UP 1/2"…; last check. */
  states(): Promise<Record<string, ServerState>>;
  /** Waits until the named server has this status (UP or DOWN): when it did, in ms since epoch. */
  waitForStatus(name: string, status: "UP" | "DOWN", timeoutMs?: number): Promise<number>;
  stop(): Promise<void>;
};

/**
 * HAProxy in front of `backends`: round robin, health-checked on GET /readyz every 200 ms (two
 * failures mark a server down, two successes up again). A request whose server refuses the
 * connection, closes without an answer or times out is sent to another server (redispatch,
 * retry-on). Each answer names its server in x-served-by. Resolves once every server is UP.
 * `forwardFor`: each request gets the client's address appended in X-Forwarded-For (`option
 * forwardfor`), as a balancer in front of TRUST_PROXY=true does.
 */
export async function startHaproxy(
  backends: Backend[],
  options: { port?: number; serverTimeoutMs?: number; waitUntilUpMs?: number; forwardFor?: boolean } = {},
): Promise<Haproxy> {
  if (!haproxyInstalled()) throw new Error(`${HAPROXY} is missing (apt-get install haproxy)`);
  const folder = mkdtempSync(path.join(tmpdir(), "buddy-haproxy-"));
  const port = options.port ?? (await freePort());
  const socket = path.join(folder, "admin.sock");
  const config = [
    "global",
    "  maxconn 4096",
    `  stats socket ${socket} mode 600 level admin`,
    "defaults",
    "  mode http",
    "  timeout connect 1s",
    "  timeout client 30s",
    `  timeout server ${options.serverTimeoutMs ?? 10_000}ms`,
    "  timeout check 1s",
    "  option redispatch",
    "  retries 3",
    "  retry-on conn-failure empty-response response-timeout",
    "frontend web",
    `  bind 127.0.0.1:${port}`,
    "  default_backend buddy",
    "backend buddy",
    "  balance roundrobin",
    "  option httpchk GET /readyz",
    "  http-check expect status 200",
    "  http-response set-header x-served-by %s",
    ...(options.forwardFor ? ["  option forwardfor"] : []),
    "  default-server inter 200 fall 2 rise 2",
    ...backends.map((backend) => `  server ${backend.name} 127.0.0.1:${backend.port} check`),
    "",
  ].join("\n");
  const configFile = path.join(folder, "haproxy.cfg");
  writeFileSync(configFile, config);
  const child = spawn(HAPROXY, ["-f", configFile, "-db"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const killNow = () => child.kill("SIGKILL");
  cleanups.add(killNow);

  async function states(): Promise<Record<string, ServerState>> {
    const csv = await new Promise<string>((resolve, reject) => {
      const connection = connect(socket);
      let text = "";
      connection.on("data", (chunk) => {
        text += chunk;
      });
      connection.once("error", reject);
      connection.once("end", () => resolve(text));
      connection.write("show stat\n");
    });
    const [header, ...lines] = csv.trim().split("\n");
    const columns = (header ?? "").replace(/^# /, "").split(",");
    const at = (name: string) => columns.indexOf(name);
    const result: Record<string, ServerState> = {};
    for (const line of lines) {
      const cells = line.split(",");
      const name = cells[at("svname")] ?? "";
      if (cells[at("pxname")] !== "buddy" || name === "BACKEND") continue;
      result[name] = { status: cells[at("status")] ?? "", checkStatus: cells[at("check_status")] ?? "" };
    }
    return result;
  }

  const haproxy: Haproxy = {
    origin: `http://127.0.0.1:${port}`,
    port,
    states,
    async waitForStatus(name, status, timeoutMs = 15_000) {
      try {
        await waitFor(
          `HAProxy marking ${name} ${status}`,
          async () => (await states())[name]?.status === status,
          timeoutMs,
          20,
        );
      } catch (error) {
        throw new Error(`${(error as Error).message}; servers: ${JSON.stringify(await states())}`);
      }
      return Date.now();
    },
    async stop() {
      if (alive(child)) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await Promise.race([exited, sleep(5000).then(() => child.kill("SIGKILL"))]);
      }
      cleanups.delete(killNow);
      rmSync(folder, { recursive: true, force: true });
    },
  };
  try {
    await waitFor(`HAProxy on port ${port}`, () => {
      if (!alive(child)) throw new Error(`haproxy exited: ${output}`);
      return existsSync(socket) && states().then(() => true);
    });
    // A check passing on every server, not only HAProxy's optimistic start-up state.
    await waitFor(
      "HAProxy's health checks passing on every server",
      async () => Object.values(await states()).every((s) => s.status === "UP" && s.checkStatus === "L7OK"),
      options.waitUntilUpMs ?? 30_000,
    ).catch(async (error) => {
      throw new Error(`${error.message}; servers: ${JSON.stringify(await states())}\n${output}`);
    });
  } catch (error) {
    await haproxy.stop();
    throw error;
  }
  return haproxy;
}
