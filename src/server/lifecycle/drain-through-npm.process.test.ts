import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { exitOf, freePort } from "../testing/buddy-process";
import { createScratchDatabase } from "../testing/database";
import { report } from "../testing/instances/process-suite";
import { slowPost } from "../testing/slow-request";

const root = path.resolve(import.meta.dirname, "../../..");
const DRAIN_SECONDS = 2;
/** The bound: the drain, then this long to finish and exit. */
const EXIT_WITHIN_MS = DRAIN_SECONDS * 1000 + 15_000;

/** The processes of a process group, from /proc (zombies included: they are not gone yet). */
function processGroup(pgid: number): string[] {
  const members: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so split after its end.
      const [, , group] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(group) !== pgid) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
      members.push(`${pid} ${command || stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))}`);
    } catch {
      // Exited between the listing and the read.
    }
  }
  return members;
}

/** The status of a GET on a new connection, as a balancer's check makes; 0 when refused. */
async function statusOf(origin: string, url: string): Promise<number> {
  try {
    const response = await fetch(`${origin}${url}`, {
      headers: { connection: "close" },
      signal: AbortSignal.timeout(2_000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

type Started = { npm: ChildProcess; port: number; origin: string; output: () => string };

/**
 * `npm start` as the README runs it, in a process group of its own (a container's, or a
 * supervisor's), on PostgreSQL when TEST_DATABASE_URL names one, else on PGlite.
 */
async function npmStart(dataDir: string, databaseUrl: string | undefined): Promise<Started> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // npm asks the registry for a newer npm now and then: nothing a test should depend on.
    npm_config_update_notifier: "false",
    PORT: String(port),
    PUBLIC_URL: origin,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    APP_SECRET: "drain-test-secret-drain-test-secret-0123456",
    SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
    RATE_LIMIT_PER_IP: "0",
    LOG_FORMAT: "json",
    LOG_LEVEL: "info",
  };
  const npm = spawn("npm", ["start"], {
    cwd: root,
    detached: true,
    env: Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined)),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  npm.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  npm.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  // A build, when the sources are newer than dist/, comes first.
  const deadline = Date.now() + 120_000;
  while ((await statusOf(origin, "/readyz")) !== 200) {
    if (npm.exitCode !== null || npm.signalCode !== null) throw new Error(`npm start exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm start was not ready within 120 s:\n${output}`);
    await sleep(100);
  }
  return { npm, port, origin, output: () => output };
}

type Probe = { at: number; readyz: number; auth: number };

describe.each([
  { target: "its own pid, as a container runtime signals PID 1", group: false },
  { target: "its whole process group", group: true },
])("npm start, SIGTERM to $target", ({ group }) => {
  let dataDir: string;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let started: Started | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "buddy-drain-"));
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (serverUrl) scratch = await createScratchDatabase(serverUrl, "buddy_drain");
    started = await npmStart(dataDir, scratch?.url);
  }, 150_000);
  afterAll(async () => {
    // Whatever the test found, nothing of the group outlives it.
    const pgid = started?.npm.pid;
    if (pgid && processGroup(pgid).length > 0) process.kill(-pgid, "SIGKILL");
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach((context) => {
    if (context.task.result?.state === "fail")
      console.error(started?.output().split("\n").slice(-40).join("\n"));
  });

  it("drains: /readyz 503 while /auth is served, finishes the request in flight, and every process exits", async () => {
    if (!started) throw new Error("not started");
    const { npm, port, origin } = started;
    const pgid = npm.pid ?? 0;
    const tree = processGroup(pgid);
    // The request in flight: headers and half its body are there before the signal.
    const signup = slowPost(port, "/api/auth", {
      email: `in-flight-${group ? "group" : "pid"}@example.com`,
      password: "Sup3r-secret!",
      mode: "signup",
    });
    await sleep(300);
    const npmExited = exitOf(npm);
    const signalled = Date.now();
    process.kill(group ? -pgid : pgid, "SIGTERM");

    const probes: Probe[] = [];
    let finished = false;
    let allExitedAt = 0;
    while (Date.now() - signalled < EXIT_WITHIN_MS) {
      const [readyz, auth] = await Promise.all([statusOf(origin, "/readyz"), statusOf(origin, "/auth")]);
      probes.push({ at: Date.now() - signalled, readyz, auth });
      // The listener has closed: the last half of the body, for a request that must still finish.
      if (!finished && readyz === 0 && auth === 0) {
        finished = true;
        signup.finish();
      }
      if (processGroup(pgid).length === 0) {
        allExitedAt = Date.now() - signalled;
        break;
      }
      await sleep(50);
    }
    if (!finished) signup.finish();
    const answer = await signup.answer.catch((error: Error) => ({ status: 0, body: error.message }));

    const draining = probes.filter((probe) => probe.readyz === 503);
    const firstServed = (status: number) => probes.find((probe) => probe.readyz === status)?.at ?? -1;
    const authServedUntil = Math.max(
      -1,
      ...probes.filter((probe) => probe.auth === 200).map((probe) => probe.at),
    );
    report(`Drain through npm, SIGTERM to ${group ? "the process group" : "npm's pid"}`, {
      tree,
      readyz503AfterMs: firstServed(503),
      readyz503ForMs: draining.length > 0 ? Math.max(...draining.map((p) => p.at)) - firstServed(503) : 0,
      authAnsweredUntilMs: authServedUntil,
      inFlightAnswer: answer.status,
      lastProcessExitedAfterMs: allExitedAt,
      npmExitCode: npm.exitCode,
      left: processGroup(pgid),
    });

    // npm, then node itself (npm's shell execs it): no shell in between to swallow the signal.
    expect(tree).toHaveLength(2);
    expect(processGroup(pgid)).toEqual([]);
    expect(allExitedAt).toBeGreaterThan(0);
    expect(await npmExited).toBe(0);
    // Out of the balancer at once, while everything else is still served for the drain.
    expect(firstServed(503)).toBeGreaterThanOrEqual(0);
    expect(firstServed(503)).toBeLessThan(1_000);
    // The pair of probes sent as the drain ends may see /readyz before the close and /auth after it.
    const drainEnds = DRAIN_SECONDS * 1000 - 250;
    expect(draining.filter((probe) => probe.at < drainEnds).every((probe) => probe.auth === 200)).toBe(true);
    expect(authServedUntil).toBeGreaterThanOrEqual(DRAIN_SECONDS * 1000 - 500);
    expect(probes.filter((probe) => probe.readyz === 200 && probe.at > 1_000)).toEqual([]);
    expect(answer.status, answer.body).toBe(201);
  }, 40_000);
});
