import { Writable } from "node:stream";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { loggerOptions } from "./logger";
import { lazyChildLoggerFactory, OneLinePerRequest } from "./request-logger";

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

describe("request loggers made on first use", () => {
  it("log with the request id, at the route's level, like Fastify's own children", async () => {
    const { lines, stream } = capture();
    const app = Fastify({
      logger: { ...(loggerOptions("info", false) as object), stream },
      childLoggerFactory: lazyChildLoggerFactory,
      logController: new OneLinePerRequest(),
    });
    app.get("/loud", async (request) => {
      request.log.info("handled");
      request.log.child({ step: "inner" }).warn("nested");
      return { level: request.log.level };
    });
    app.get("/quiet", { logLevel: "warn" }, async (request) => {
      request.log.info("not written");
      request.log.error("written");
      return { level: request.log.level };
    });
    const loud = await app.inject({ url: "/loud" });
    const quiet = await app.inject({ url: "/quiet" });
    await app.close();

    expect(loud.json()).toEqual({ level: "info" });
    expect(quiet.json()).toEqual({ level: "warn" });
    const handled = lines.find((line) => line.msg === "handled");
    expect(handled?.reqId).toEqual(expect.any(String));
    expect(lines.find((line) => line.msg === "nested")).toMatchObject({
      step: "inner",
      reqId: handled?.reqId,
    });
    // The request's own line at info: written for /loud, not for the warn-level route.
    expect(lines.filter((line) => line.msg === "request completed")).toHaveLength(1);
    expect(lines.some((line) => line.msg === "not written")).toBe(false);
    expect(lines.find((line) => line.msg === "written")?.reqId).toEqual(expect.any(String));
  });
});

describe("the request log", () => {
  it("is one line per request, written once answered: method, route pattern, status and time", async () => {
    const { lines, stream } = capture();
    const app = Fastify({
      logger: { ...(loggerOptions("info", false) as object), stream },
      childLoggerFactory: lazyChildLoggerFactory,
      logController: new OneLinePerRequest(),
    });
    app.get("/items/:id", async (request) => {
      request.log.info("handled");
      return { ok: true };
    });
    app.get("/quiet/:id", { logLevel: "warn" }, async () => ({ ok: true }));
    app.get("/broken", async () => {
      throw new Error("boom");
    });
    await app.inject({ url: "/items/secret-id?token=abc" });
    await app.inject({ url: "/quiet/1" });
    await app.inject({ url: "/broken" });
    await app.inject({ url: "/nowhere?token=abc" });
    await app.close();

    const handled = lines.find((line) => line.msg === "handled");
    const completed = lines.filter((line) => line.msg === "request completed");
    expect(lines.some((line) => line.msg === "incoming request")).toBe(false);
    expect(completed).toHaveLength(3);
    expect(completed[0]).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: expect.any(Number),
      hostname: expect.any(String),
      reqId: handled?.reqId,
      method: "GET",
      route: "/items/:id",
      statusCode: 200,
      responseTime: expect.any(Number),
      msg: "request completed",
    });
    // Its error is logged by the error handler, as before; the request's line gives its outcome.
    expect(completed[1]).toMatchObject({ route: "/broken", statusCode: 500 });
    // Only what no route matched carries its URL, with secrets redacted.
    expect(completed[2]).toMatchObject({ url: "/nowhere?token=[REDACTED]", statusCode: 404 });
    expect(completed[2]).not.toHaveProperty("route");
    expect(JSON.stringify(lines)).not.toContain("secret-id");
  });

  it("writes a line on arrival too at debug, so a request that never completes is found", async () => {
    const { lines, stream } = capture();
    const app = Fastify({
      logger: { ...(loggerOptions("debug", false) as object), stream },
      childLoggerFactory: lazyChildLoggerFactory,
      logController: new OneLinePerRequest(),
    });
    app.get("/items/:id", async () => ({ ok: true }));
    await app.inject({ url: "/items/1?token=abc" });
    await app.close();
    expect(lines.map((line) => line.msg)).toEqual(["incoming request", "request completed"]);
    expect(lines[0]).toMatchObject({ method: "GET", url: "/items/1?token=[REDACTED]" });
    expect(lines[1]?.reqId).toBe(lines[0]?.reqId);
  });
});
