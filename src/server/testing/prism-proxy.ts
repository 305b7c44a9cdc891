// Stoplight Prism's validating proxy in front of a server, for contract tests: every answer that
// passes through is checked against an OpenAPI document. With --errors an answer the document does
// not describe becomes a 500 problem (a wrong body, header or media type) or keeps its status with
// an `sl-violations` header (a status the operation does not list).
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort, recentOutput } from "./buddy-process";

const require = createRequire(import.meta.url);
const PRISM_CLI = path.join(
  path.dirname(require.resolve("@stoplight/prism-cli/package.json")),
  "dist/index.js",
);
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

export type PrismProxy = {
  origin: string;
  /** Prism's log, to print when a test fails. */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited within 5 s. */
  stop(): Promise<void>;
};

const running = new Set<ChildProcess>();
// A test run that dies between start and afterAll must not leave a proxy behind.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/**
 * `prism proxy <document> <upstream> --errors` on a free port; resolves once it forwards a request.
 * `validateRequests: false` lets requests the document forbids through to the upstream, so that
 * the upstream's refusal of them is judged too (Prism's own check of credentials stays).
 */
export async function startPrismProxy(options: {
  document: string;
  upstream: string;
  validateRequests?: boolean;
  /** A path every answer of which is a success: polled until the proxy forwards it. */
  readyPath: string;
}): Promise<PrismProxy> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [
      PRISM_CLI,
      "proxy",
      options.document,
      options.upstream,
      "--errors",
      `--validate-request=${options.validateRequests ?? true}`,
      // Answers as the upstream gives them: no CORS headers of Prism's own.
      "--cors=false",
      "--host=127.0.0.1",
      `--port=${port}`,
      "--verboseLevel=warn",
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH, NO_COLOR: "1" } },
  );
  running.add(child);
  const output = recentOutput(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const proxy: PrismProxy = {
    origin,
    output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await Promise.race([exited, sleep(STOP_TIMEOUT_MS).then(() => child.kill("SIGKILL"))]);
        await exited;
      }
      running.delete(child);
    },
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`prism exited with ${child.exitCode ?? child.signalCode}\n${output()}`);
    try {
      const response = await fetch(`${origin}${options.readyPath}`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.ok) return proxy;
    } catch {}
    if (Date.now() > deadline) {
      await proxy.stop();
      throw new Error(`prism did not start within ${START_TIMEOUT_MS / 1000} s\n${output()}`);
    }
    await sleep(100);
  }
}
