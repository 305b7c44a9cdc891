// The production server (dist/server/main.js) as a child process, with mail to a real SMTP
// receiver: for the benchmark and for process-level tests (crash, restart, several instances).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type MailReceiver, startMailReceiver, tokenFrom } from "./mail-receiver";

const PROJECT_ROOT = path.resolve(import.meta.dirname, "../../..");

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** The child's exit code once it has exited (null when a signal ended it). */
export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

export type BuddyProcess = {
  origin: string;
  port: number;
  pid: number;
  dataDir: string;
  /** Its APP_SECRET: given, or made for this process. */
  appSecret: string;
  mail: MailReceiver;
  /** With output "capture": the process's last lines of output, to print when a test fails. */
  output(): string;
  /** Ends the process at once, like a crash: no shutdown code runs. */
  kill(): Promise<void>;
  /** Signs up, verifies through the mailed link and completes onboarding: a bearer token. */
  createOrganization(label: string, description: string): Promise<string>;
  /** SIGTERM, then the process's exit code once it has shut down (0 after a clean shutdown). */
  stop(): Promise<number | null>;
};

export type BuddyOptions = {
  databaseUrl?: string;
  redisUrl?: string;
  /** Shared by every instance of one deployment; by default one made for this process. */
  appSecret?: string;
  /** The origin links and mails point to: a load balancer's in front of several instances. */
  publicUrl?: string;
  dataDir?: string;
  port?: number;
  mail?: MailReceiver;
  /** Settings on top of the defaults below (a value "" removes a default). */
  env?: Record<string, string>;
  /** Extra node flags, e.g. --cpu-prof to profile a benchmark run. */
  nodeArgs?: string[];
  /** inherit (default): the server writes to the test's output; capture: kept for output(). */
  stdio?: "inherit" | "capture";
};

/** The last few hundred lines a piped child process wrote, both streams, to print when a test fails. */
export function recentOutput(child: ChildProcess): () => string {
  let lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split("\n").filter(Boolean));
    if (lines.length > 400) lines = lines.slice(-200);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return () => lines.join("\n");
}

/** Resolves once the server answers its API; throws if it exits or takes over 60 s. */
export async function startBuddy(options: BuddyOptions = {}): Promise<BuddyProcess> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "buddy-process-"));
  const mail = options.mail ?? (await startMailReceiver());
  const appSecret = options.appSecret ?? randomBytes(32).toString("base64url");
  const origin = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    PORT: String(port),
    PUBLIC_URL: options.publicUrl ?? origin,
    DATA_DIR: dataDir,
    SMTP_URL: mail.url,
    RATE_LIMIT_PER_IP: "0",
    // Benchmarks send every pixel hit from one address.
    PIXEL_RATE_LIMIT_PER_IP: "0",
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
    // No balancer to drain for: stop() closes at once (a test behind HAProxy sets its own).
    SHUTDOWN_DRAIN_SECONDS: "0",
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    APP_SECRET: appSecret,
    ...options.env,
  };
  const capture = options.stdio === "capture";
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), path.join(PROJECT_ROOT, "dist/server/main.js")],
    {
      cwd: PROJECT_ROOT,
      env: Object.fromEntries(Object.entries(env).filter(([, value]) => value)),
      stdio: ["ignore", capture ? "pipe" : "inherit", capture ? "pipe" : "inherit"],
    },
  );
  const output = recentOutput(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited with ${child.exitCode ?? child.signalCode}\n${output()}`);
    try {
      if ((await fetch(`${origin}/api/me`)).status === 401) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start within 60 s\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    origin,
    port,
    pid: child.pid ?? 0,
    dataDir,
    appSecret,
    mail,
    output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
    createOrganization: (label, description) =>
      createOrganization(origin, mail, label, description, options.publicUrl ?? origin),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const code = await exited;
      if (!options.mail) await mail.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

async function post(origin: string, url: string, body: unknown, token?: string) {
  const response = await fetch(`${origin}${url}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

/**
 * Signs up at `origin` (a server, or a balancer in front of several), verifies through the mailed
 * link and onboards: a bearer token. The address is at the organization's own domain
 * (<label>.bench.example), which proves it (CONTRACT §4).
 */
export async function createOrganization(
  origin: string,
  mail: MailReceiver,
  label: string,
  description: string,
  /** Where the mailed links point (PUBLIC_URL), when not `origin`. */
  publicUrl = origin,
): Promise<string> {
  const email = `${label}-${Date.now()}@${label}.bench.example`;
  await post(origin, "/api/auth", { email, password: "Bench-pass1!", mode: "signup" });
  const message = await mail.waitFor((m) => m.to === email);
  const { token } = (await post(origin, "/api/verify-email", {
    token: tokenFrom(message, `${publicUrl}/verify-email`),
  })) as { token: string };
  await post(
    origin,
    "/api/onboarding",
    {
      companyName: label.slice(0, 25),
      website: `${label}.bench.example`,
      description,
      transactionalEmailProvider: "postmark",
      marketingEmailProvider: "mailchimp",
      selectedCompetitors: [],
      selectedComplements: [],
    },
    token,
  );
  return token;
}
