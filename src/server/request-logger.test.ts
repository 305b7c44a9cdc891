import { Writable } from "node:stream";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { loggerOptions } from "./logger";
import { lazyChildLoggerFactory } from "./request-logger";

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
    // Fastify's request lines at info: written for /loud, not for the warn-level route.
    expect(lines.filter((line) => line.msg === "incoming request")).toHaveLength(1);
    expect(lines.some((line) => line.msg === "not written")).toBe(false);
    expect(lines.find((line) => line.msg === "written")?.reqId).toEqual(expect.any(String));
  });
});
