import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { registerErrorHandling, UNAVAILABLE_MESSAGE } from "./errors";

/** As Drizzle raises the driver's error: wrapped, with the SQLSTATE on the cause. */
const wrapped = (code: string) =>
  new Error("Failed query", { cause: Object.assign(new Error("x"), { code }) });

describe("the error handler, for a statement PostgreSQL rolled back", () => {
  it("answers a rollback that is left 503 with Retry-After, not 500", async () => {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get("/deadlocked", async () => {
      throw wrapped("40P01");
    });
    const response = await app.inject({ url: "/deadlocked" });
    expect(response.statusCode).toBe(503);
    expect(response.headers["retry-after"]).toBe("1");
    expect(response.json()).toEqual({ message: UNAVAILABLE_MESSAGE });
    await app.close();
  });
});
