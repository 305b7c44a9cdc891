import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, createTestApp, type TestApp } from "../testing/app";
import { BROWSER_USER_AGENT, createBuddies } from "../testing/buddies";

// Errors raised before a route runs, and hostile input on the public routes, over a real socket
// where it matters: Node's HTTP parser sits before Fastify, and the caches answer a second hit.
let t: TestApp;
let origin: string;
let buddies: Awaited<ReturnType<typeof createBuddies>>;
let apiKey: string;
const log: { level: number; msg?: string }[] = [];

beforeAll(async () => {
  t = await createTestApp({
    logger: { level: "warn", stream: { write: (line: string) => log.push(JSON.parse(line)) } },
  });
  buddies = await createBuddies(t, ["errorco", "errorpartner"]);
  apiKey = (await createApiKey(t, buddies.org)).key;
  origin = await t.app.listen({ port: 0, host: "127.0.0.1" });
  // Over HTTP once each, so the short link and the key are in memory.
  const followed = await fetch(`${origin}${buddies.shortPath}`, {
    redirect: "manual",
    headers: { "user-agent": BROWSER_USER_AGENT },
  });
  expect(followed.status).toBe(302);
  expect((await fetch(`${origin}/api/ads`, { headers: { "x-api-key": apiKey } })).status).toBe(200);
});
afterAll(() => t.close());

const errorsLogged = () => log.filter((entry) => entry.level >= 50);

/** One raw request on its own socket, and everything the server wrote back before closing it. */
function rawRequest(request: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    let answer = "";
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.on("data", (chunk) => {
      answer += chunk;
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve(answer));
  });
}

describe("errors raised before a route runs answer the contract's {message}", () => {
  it.each([
    ["a path that does not decode", "/api/relationships/%E0%A4%A", 400],
    ["an over-long id", `/api/relationships/${"x".repeat(500)}`, 414],
  ])("%s", async (_name, url, status) => {
    const response = await t.app.inject({ url, headers: buddies.org.headers });
    expect(response.statusCode).toBe(status);
    expect(response.headers["content-type"]).toContain("application/json");
    expect(response.json()).toEqual({ message: expect.any(String) });
  });

  it.each([
    ["malformed JSON", "application/json", '{"name": ', 400],
    ["a body over the limit", "application/json", `{"name":"${"x".repeat(1_100_000)}"}`, 413],
    ["a media type the API does not take", "application/xml", "<name>x</name>", 415],
    ["a text body", "text/plain", '{"name":"typed as text"}', 415],
  ])("%s", async (_name, type, payload, status) => {
    const keys = async () =>
      (await t.app.inject({ url: "/api/api-keys", headers: buddies.org.headers })).json();
    const before = await keys();
    const response = await t.app.inject({
      method: "POST",
      url: "/api/api-keys",
      headers: { ...buddies.org.headers, "content-type": type },
      payload,
    });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual(
      status === 415 ? { message: "Unsupported media type" } : { message: expect.any(String) },
    );
    expect(await keys()).toEqual(before);
  });

  it("answers headers over Node's limit with 431 {message}", async () => {
    const answer = await rawRequest(
      `GET /api/me HTTP/1.1\r\nHost: x\r\nX-Big: ${"x".repeat(20_000)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain("Content-Type: application/json");
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
      message: "The request headers are too large",
    });
  });

  it("answers an HTTP/1.1 request without a Host header with 400 {message}", async () => {
    const answer = await rawRequest("GET /api/me HTTP/1.1\r\nAccept: */*\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain("content-type: application/json");
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
      message: "The request has no Host header",
    });
    // HTTP/1.0 needs none, and a request with one is served.
    expect(await rawRequest("GET /healthz HTTP/1.0\r\n\r\n")).toMatch(/^HTTP\/1\.1 200 /);
    expect(await rawRequest("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 200 /,
    );
  });

  it("answers a request Node cannot parse with 400 {message}", async () => {
    const answer = await rawRequest("GET /api/me HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({ message: "Bad request" });
  });
});

describe("public routes refuse a NUL with a 4xx {message}, over HTTP and with their links and keys in memory", () => {
  const cases: [string, () => string, { withKey?: boolean }?][] = [
    ["a short link", () => "/s/%00"],
    ["a known short link with a NUL after it", () => `${buddies.shortPath}%00`],
    ["a logo", () => "/api/logos/%00.jpg"],
    ["the pixel's org", () => `/api/marketing/conversion/${buddies.clickId}?type=signup&org=%00`],
    [
      "the pixel's type",
      () => `/api/marketing/conversion/${buddies.clickId}?type=signup%00&org=${buddies.org.organizationId}`,
    ],
    [
      "the pixel's click id",
      () => `/api/marketing/conversion/a%00b?type=signup&org=${buddies.org.organizationId}`,
    ],
    ["the Ads API's format", () => "/api/ads?format=json%00", { withKey: true }],
  ];
  it.each(cases)("%s", async (_name, path, options) => {
    const before = errorsLogged().length;
    const response = await fetch(`${origin}${path()}`, {
      redirect: "manual",
      headers: { "user-agent": BROWSER_USER_AGENT, ...(options?.withKey && { "x-api-key": apiKey }) },
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(await response.json()).toEqual({ message: expect.any(String) });
    expect(errorsLogged().length).toBe(before);
  });
});
