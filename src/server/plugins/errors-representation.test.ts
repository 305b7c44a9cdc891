import { Readable } from "node:stream";
import { brotliDecompressSync } from "node:zlib";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RateLimitedError } from "../errors";
import { registerCompression } from "./compression";
import { registerErrorHandling } from "./errors";

/**
 * An error answered after a route had set up another body (a CSV attachment, a compressed stream)
 * is a plain JSON `{message}`: nothing of that body's headers is left on it (issue 34). Here with
 * bare routes, so every way of failing before the first byte is reached on purpose.
 */
let app: FastifyInstance;

/** A stream that fails on its first read, before it has sent anything. */
const failingStream = (error: Error) =>
  new Readable({
    read() {
      this.destroy(error);
    },
  });

const csvHeaders = {
  "content-type": "text/csv; charset=utf-8",
  "content-disposition": 'attachment; filename="x.csv"',
};

beforeAll(async () => {
  app = Fastify();
  await registerCompression(app);
  registerErrorHandling(app);
  app.get("/stream-fails", async (_request, reply) =>
    reply.headers(csvHeaders).send(failingStream(new Error("boom"))),
  );
  app.get("/stream-unavailable", async (_request, reply) =>
    reply.headers(csvHeaders).send(failingStream(new Error("Connection terminated unexpectedly"))),
  );
  app.get("/limited-after-headers", async (_request, reply) => {
    reply.headers(csvHeaders);
    throw new RateLimitedError(7);
  });
  // The control: a stream that works is the CSV it said it was, compressed when asked.
  app.get("/stream-works", async (_request, reply) =>
    reply
      .headers(csvHeaders)
      .send(Readable.from(["id\r\n", ...Array.from({ length: 300 }, (_, i) => `${i}\r\n`)])),
  );
  await app.ready();
});
afterAll(() => app.close());

describe("an error after another body was set up", () => {
  it.each([
    ["a stream failing before its first byte", "/stream-fails", 500, undefined],
    ["a stream meeting an unreachable database", "/stream-unavailable", 503, "1"],
    ["a rate limit thrown after the CSV headers were set", "/limited-after-headers", 429, "7"],
  ])("answers %s as plain JSON", async (_name, url, status, retryAfter) => {
    for (const encoding of [{}, { "accept-encoding": "br" }, { "accept-encoding": "gzip, br" }]) {
      const response = await app.inject({ url, headers: encoding });
      expect(response.statusCode).toBe(status);
      expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(response.headers["content-disposition"]).toBeUndefined();
      expect(response.headers["content-encoding"]).toBeUndefined();
      expect(response.headers["retry-after"]).toBe(retryAfter);
      expect(Object.keys(response.json())).toEqual(["message"]);
    }
  });

  it("leaves a stream that works as it was set up", async () => {
    const response = await app.inject({ url: "/stream-works", headers: { "accept-encoding": "br" } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe('attachment; filename="x.csv"');
    expect(response.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(response.rawPayload).toString()).toMatch(/^id\r\n0\r\n1\r\n/);
  });
});
