import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import Fastify from "fastify";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { encodedLines, loggerOptions, prettyLogs, redactUrl } from "./logger";

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

  it("writes buffered lines whole and in order, whatever their characters, once flushed", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "buddy-log-"));
    try {
      const file = path.join(dir, "log");
      const destination = pino.destination({
        dest: file,
        sync: false,
        minLength: 4096,
        contentMode: "buffer",
        mkdir: true,
      });
      await new Promise((resolve) => destination.once("ready", resolve));
      const log = pino({ base: undefined }, encodedLines(destination) as unknown as pino.DestinationStream);
      const names = ["Crème brûlée", "東京", "🦊 fox", "plain"];
      for (let i = 0; i < 200; i++) log.info({ i, name: names[i % names.length] }, "line");
      // Below minLength nothing has been written yet; a flush writes what waits.
      await new Promise<void>((resolve, reject) => log.flush((error) => (error ? reject(error) : resolve())));
      const lines = readFileSync(file, "utf8")
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(lines).toHaveLength(200);
      expect(lines.map((line) => line.i)).toEqual([...Array(200).keys()]);
      expect(lines.map((line) => line.name)).toEqual(lines.map((_, i) => names[i % names.length]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
