// The production server (dist/server/main.js) as a child process, with mail to a real SMTP
// receiver: for the benchmark and for process-level tests (crash, restart).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type MailReceiver, startMailReceiver, tokenFrom } from "./test-mail-receiver";

const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export type BuddyProcess = {
  origin: string;
  port: number;
  pid: number;
  dataDir: string;
  /** Its APP_SECRET: given, or made for this process. */
  appSecret: string;
  mail: MailReceiver;
  /** Ends the process at once, like a crash: no shutdown code runs. */
  kill(): Promise<void>;
  /** Signs up, verifies through the mailed link and completes onboarding: a bearer token. */
  createOrganization(label: string, description: string): Promise<string>;
  /** SIGTERM, then the process's exit code once it has shut down (0 after a clean shutdown). */
  stop(): Promise<number | null>;
};

export async function startBuddy(
  options: {
    databaseUrl?: string;
    dataDir?: string;
    appSecret?: string;
    port?: number;
    mail?: MailReceiver;
    /** Extra node flags, e.g. --cpu-prof to profile a benchmark run. */
    nodeArgs?: string[];
  } = {},
): Promise<BuddyProcess> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "buddy-process-"));
  const mail = options.mail ?? (await startMailReceiver());
  const appSecret = options.appSecret ?? randomBytes(32).toString("base64url");
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), path.join(PROJECT_ROOT, "dist/server/main.js")],
    {
      cwd: PROJECT_ROOT,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        PUBLIC_URL: origin,
        DATA_DIR: dataDir,
        APP_SECRET: appSecret,
        SMTP_URL: mail.url,
        RATE_LIMIT_PER_IP: "0",
        // Benchmarks send every pixel hit from one address.
        PIXEL_RATE_LIMIT_PER_IP: "0",
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
        // No balancer to drain for: stop() closes at once.
        SHUTDOWN_DRAIN_SECONDS: "0",
        ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/api/me`)).status === 401) break;
    } catch {}
    if (Date.now() > deadline) throw new Error("server did not start within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  async function post(url: string, body: unknown, token?: string) {
    const response = await fetch(`${origin}${url}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  }

  return {
    origin,
    port,
    pid: child.pid ?? 0,
    dataDir,
    appSecret,
    mail,
    async kill() {
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
    },
    async createOrganization(label, description) {
      // At the organization's own domain, which proves it (CONTRACT §4).
      const email = `${label}-${Date.now()}@${label}.bench.example`;
      await post("/api/auth", { email, password: "Bench-pass1!", mode: "signup" });
      const message = await mail.waitFor((m) => m.to === email);
      const { token } = (await post("/api/verify-email", {
        token: tokenFrom(message, `${origin}/verify-email`),
      })) as {
        token: string;
      };
      await post(
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
    },
    async stop() {
      child.kill("SIGTERM");
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      if (!options.mail) await mail.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
