import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./testing/buddy-process";

const root = path.resolve(import.meta.dirname, "../..");

async function startServer(dataDir: string, port: number, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ["dist/server/main.js"], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      // Draining for a balancer is lifecycle/readiness.process.test.ts's.
      SHUTDOWN_DRAIN_SECONDS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 30_000;
  while (!output.includes("Buddy is running")) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, output: () => output };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

describe("the server process", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), "buddy-main-"));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("starts on the embedded database, logs where it listens, stops cleanly on SIGTERM and restarts on the same data", async () => {
    const port = await freePort();
    const first = await startServer(dataDir, port);
    expect(first.output()).toContain(`http://localhost:${port}`);
    const response = await fetch(`http://127.0.0.1:${port}/api/me`);
    expect(response.status).toBe(401);
    // An account made now must survive the restart.
    const signup = await fetch(`http://127.0.0.1:${port}/api/auth`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "restart@example.com", password: "Sup3r-secret!", mode: "signup" }),
    });
    expect(signup.status).toBe(201);
    // Without SMTP_URL the mail is printed with its link; not at a terminal, as JSON with the
    // link in a field of its own.
    await expect.poll(() => first.output()).toMatch(/verify-email\?token=[\w-]+/);
    const mailed = first
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line))
      .find((line) => line.mail?.to === "restart@example.com");
    expect(mailed.mail.links).toEqual([
      expect.stringMatching(/^http:\/\/localhost:\d+\/verify-email\?token=[\w-]+$/),
    ]);

    const exited = exitOf(first.child);
    first.child.kill("SIGTERM");
    expect(await exited).toBe(0);

    const secret = readFileSync(path.join(dataDir, "app-secret"), "utf8");
    const second = await startServer(dataDir, port);
    expect(readFileSync(path.join(dataDir, "app-secret"), "utf8")).toBe(secret);
    const login = await fetch(`http://127.0.0.1:${port}/api/auth`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "restart@example.com", password: "Sup3r-secret!", mode: "login" }),
    });
    expect(login.status).toBe(403); // known, still unverified: the data survived
    const exitedAgain = exitOf(second.child);
    second.child.kill("SIGTERM");
    expect(await exitedAgain).toBe(0);
  });

  it("answers a request already in flight when SIGTERM arrives, then exits", async () => {
    const port = await freePort();
    // At debug each request is logged on arrival too, which tells that it is in flight.
    const server = await startServer(dataDir, port, { LOG_LEVEL: "debug" });
    // Sign-up hashes a password (tens of ms): SIGTERM lands while it is being answered.
    const pending = fetch(`http://127.0.0.1:${port}/api/auth`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "inflight@example.com", password: "Sup3r-secret!", mode: "signup" }),
    });
    await expect.poll(() => server.output(), { interval: 5 }).toContain('"url":"/api/auth"');
    const exited = exitOf(server.child);
    server.child.kill("SIGTERM");
    expect((await pending).status).toBe(201);
    expect(await exited).toBe(0);
  });

  it("writes readable lines with LOG_FORMAT=pretty, a mailed link alone on its line", async () => {
    const port = await freePort();
    // pino-pretty runs in a worker that must find it from the bundle, not from the sources.
    const server = await startServer(dataDir, port, { LOG_FORMAT: "pretty" });
    expect(server.output()).toMatch(/^\[\d\d:\d\d:\d\d\] .*INFO.*: .*Server listening at/m);
    expect(server.output()).not.toMatch(/^\{/m);
    await fetch(`http://127.0.0.1:${port}/api/auth`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "pretty@example.com", password: "Sup3r-secret!", mode: "signup" }),
    });
    await expect.poll(() => server.output()).toMatch(/^http:\/\/localhost:\d+\/verify-email\?token=[\w-]+$/m);
    const exited = exitOf(server.child);
    server.child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("refuses to start with a bad setting and names it", async () => {
    const child = spawn(process.execPath, ["dist/server/main.js"], {
      cwd: root,
      env: { PATH: process.env.PATH, PORT: "not-a-port", DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    expect(await exitOf(child)).toBe(1);
    expect(stderr).toContain("PORT");
  });
});
