import { Writable } from "node:stream";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { loggerOptions, prettyLogs, redactUrl } from "./logger";

describe("request logging", () => {
  it("redacts secrets in query strings", () => {
    expect(redactUrl("/verify-email?token=abc123&x=1")).toBe("/verify-email?token=[REDACTED]&x=1");
    expect(redactUrl("/api/marketing/redirect?url=x&sig=zzz")).toBe(
      "/api/marketing/redirect?url=x&sig=[REDACTED]",
    );
    // A team invitation's link: the token lets its holder join the organization.
    expect(redactUrl("/auth?tab=register&invite=secret&email=a%40b.c")).toBe(
      "/auth?tab=register&invite=[REDACTED]&email=a%40b.c",
    );
  });

  it("never writes bearer tokens, API keys or URL tokens to the log", async () => {
    let logged = "";
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logged += chunk;
        done();
      },
    });
    const options = loggerOptions("info", false) as object;
    const app = Fastify({ logger: { ...options, stream } });
    app.get("/reset-password", async () => ({ ok: true }));
    await app.inject({
      url: "/reset-password?token=secret-reset-token",
      headers: { authorization: "Bearer secret-session-token", "x-api-key": "bk_secret_key" },
    });
    await app.close();
    expect(logged).toContain("/reset-password?token=[REDACTED]");
    expect(logged).not.toContain("secret-reset-token");
    expect(logged).not.toContain("secret-session-token");
    expect(logged).not.toContain("bk_secret_key");
  });

  it("is pretty at a terminal and JSON elsewhere, unless LOG_FORMAT says", () => {
    expect(prettyLogs(undefined, true)).toBe(true);
    expect(prettyLogs(undefined, false)).toBe(false);
    expect(prettyLogs(undefined, undefined)).toBe(false);
    expect(prettyLogs("json", true)).toBe(false);
    expect(prettyLogs("pretty", false)).toBe(true);
    expect(loggerOptions("info", true)).toHaveProperty("transport.target", "pino-pretty");
    expect(loggerOptions("info", false)).not.toHaveProperty("transport");
  });
});
