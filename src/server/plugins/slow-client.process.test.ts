import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/app";

// A client that sends its request slowly holds a socket: it is cut at REQUEST_TIMEOUT_SECONDS,
// not at Node's own 60 s for the headers nor at its 30 s between checks. Over a real socket:
// Node's HTTP server, not Fastify, keeps these times.
const TIMEOUT_SECONDS = 1;
/** Node looks for late requests twice a second (app.ts); the rest is this shared machine's slack. */
const CUT_WITHIN_MS = TIMEOUT_SECONDS * 1000 + 1500;
const TRICKLE_MS = 100;

let t: TestApp;
let port: number;
const log: { level: number; msg?: string }[] = [];

beforeAll(async () => {
  t = await createTestApp({
    env: { REQUEST_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) },
    logger: { level: "warn", stream: { write: (line: string) => log.push(JSON.parse(line)) } },
  });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t.close());

type Outcome = { answer: string; closedAfterMs: number | undefined };

/**
 * Writes `head` at once, then one more byte of `rest` every TRICKLE_MS (starting over when it
 * runs out), until the server closes the socket or CUT_WITHIN_MS and a little more have passed.
 */
function slowRequest(head: string, rest: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    let answer = "";
    let sent = 0;
    const socket = connect(port, "127.0.0.1", () => socket.write(head));
    const trickle = setInterval(() => {
      if (socket.writable) socket.write(rest.charAt(sent++ % rest.length));
    }, TRICKLE_MS);
    const giveUp = setTimeout(() => {
      clearInterval(trickle);
      socket.destroy();
      resolve({ answer, closedAfterMs: undefined });
    }, CUT_WITHIN_MS + 2000);
    socket.on("data", (chunk) => {
      answer += chunk;
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(trickle);
      clearTimeout(giveUp);
      resolve({ answer, closedAfterMs: performance.now() - started });
    });
  });
}

function expectCutAtTheTimeout({ answer, closedAfterMs }: Outcome) {
  expect(closedAfterMs, "the server never closed the socket").toBeDefined();
  expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUT_SECONDS * 1000 - 100);
  expect(closedAfterMs).toBeLessThan(CUT_WITHIN_MS);
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(answer).toContain("Content-Type: application/json");
  expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
    message: "The request took too long to arrive",
  });
}

describe("a client sending its request slowly is cut at REQUEST_TIMEOUT_SECONDS with 408 {message}", () => {
  it("while its headers arrive a byte at a time", async () => {
    const outcome = await slowRequest("GET /api/me HTTP/1.1\r\nHost: buddy.test\r\nX-Slow: ", "abcdefgh");
    expectCutAtTheTimeout(outcome);
  });

  it("while its body arrives a byte at a time", async () => {
    const body = JSON.stringify({ email: "slow@example.com", password: "Wrong-pass1!", mode: "login" });
    const outcome = await slowRequest(
      "POST /api/auth HTTP/1.1\r\nHost: buddy.test\r\nContent-Type: application/json\r\n" +
        `Content-Length: ${body.length}\r\n\r\n`,
      body,
    );
    expectCutAtTheTimeout(outcome);
    expect(log.filter((entry) => entry.level >= 50)).toEqual([]);
  });
});
