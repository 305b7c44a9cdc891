import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./test-buddy-process";

const root = path.resolve(import.meta.dirname, "../..");

async function startServer(dataDir: string, port: number) {
  const child = spawn(process.execPath, ["dist/server/main.js"], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      // Draining for a balancer is lifecycle/readiness.process.test.ts's.
      SHUTDOWN_DRAIN_SECONDS: "0",
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
    // Without SMTP_URL the mail is printed with its link.
    await expect.poll(() => first.output()).toMatch(/verify-email\?token=[\w-]+/);

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
    const server = await startServer(dataDir, port);
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
