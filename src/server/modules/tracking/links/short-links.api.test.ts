import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickEvents } from "../../../db/schema";
import { createTestApp, type TestApp } from "../../../testing/app";
import { BROWSER_USER_AGENT, createBuddies } from "../../../testing/buddies";

/**
 * CONTRACT §5: `GET /s/<code>` follows a short link, and any code that is not one, of any length
 * and any characters, is a 404 `{message}`: never a 400, never the web app's page (whose catch-all
 * answers every other path outside /api).
 */
let t: TestApp;
let webRoot: string;
let buddies: Awaited<ReturnType<typeof createBuddies>>;

beforeAll(async () => {
  webRoot = mkdtempSync(path.join(tmpdir(), "buddy-web-"));
  writeFileSync(path.join(webRoot, "index.html"), "<!doctype html><title>Buddy</title>");
  t = await createTestApp({ webRoot });
  buddies = await createBuddies(t, ["shortcodes", "shortfan"]);
});
afterAll(async () => {
  await t.close();
  rmSync(webRoot, { recursive: true, force: true });
});

const NOT_CODES: Record<string, string> = {
  "200 characters": `/s/${"a".repeat(200)}`,
  "10,000 characters": `/s/${"b".repeat(10_000)}`,
  "101 characters, one past the router's longest parameter": `/s/${"c".repeat(101)}`,
  NUL: "/s/%00",
  "a NUL inside a code's shape": "/s/abc%00def",
  "a lone surrogate (undecodable)": "/s/%ED%A0%80",
  "a broken %-escape": "/s/%",
  "two segments": "/s/a/b",
  "a trailing slash": "/s/abcdef/",
  "an empty code": "/s/",
  "an empty code and a slash": "/s//",
  "an encoded slash": "/s/a%2Fb",
  "a path traversal": "/s/..%2F..%2Fetc%2Fpasswd",
  "a file name": "/s/app.js",
  "non-ASCII": "/s/%C3%A9t%C3%A9",
  "a space": "/s/a%20b",
  "a code's shape that was never issued": "/s/NotACode_0",
  "33 characters of a code's alphabet": `/s/${"d".repeat(33)}`,
};

describe("short links", () => {
  it.each(Object.entries(NOT_CODES))("answers 404 {message} in JSON for %s", async (_name, url) => {
    const events = (await t.database.db.select().from(clickEvents)).length;
    for (const method of ["GET", "HEAD"] as const) {
      const response = await t.app.inject({ method, url, headers: { "user-agent": BROWSER_USER_AGENT } });
      expect(response.statusCode, `${method} ${url.slice(0, 40)}`).toBe(404);
      expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
      if (method === "GET") expect(response.json()).toEqual({ message: "Short link not found" });
    }
    expect((await t.database.db.select().from(clickEvents)).length).toBe(events);
  });

  it("still follows a real code, and leaves the web app every other page", async () => {
    const followed = await t.app.inject({
      url: buddies.shortPath,
      headers: { "user-agent": BROWSER_USER_AGENT },
      remoteAddress: "203.0.113.77",
    });
    expect(followed.statusCode).toBe(302);
    expect(new URL(String(followed.headers.location)).searchParams.get("bclickid")).toBeTruthy();

    const page = await t.app.inject({ url: "/dashboard" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
  });
});
