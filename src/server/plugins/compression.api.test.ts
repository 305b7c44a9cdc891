import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createApiKey,
  type createOrganization,
  createTestApp,
  STRONG_PASSWORD,
  type TestApp,
} from "../testing/app";
import { createSharedAds } from "../testing/buddies";
import { COMPRESSION_THRESHOLD } from "./compression";

let t: TestApp;
let caller: Awaited<ReturnType<typeof createOrganization>>;
let buddy: Awaited<ReturnType<typeof createOrganization>>;
let apiKey: string;
const BROWSER = { "user-agent": "Mozilla/5.0 Chrome/130", "accept-encoding": "gzip, deflate, br, zstd" };

beforeAll(async () => {
  t = await createTestApp();
  ({ sharer: caller, advertiser: buddy } = await createSharedAds(
    t,
    ["zipcaller", "zipbuddy"],
    [{ name: "Zip deal", description: "About it", ctaText: "Try it" }],
  ));
  apiKey = (await createApiKey(t, caller)).key;
});
afterAll(() => t.close());

/**
 * The hooks Fastify attaches to one route, read from its route tree (the only public view of
 * them): each line of the tree is a path segment and its methods, its hooks listed beneath.
 */
function routeHooks(app: FastifyInstance, method: string, url: string): Record<string, string[]> {
  const segments: string[] = [];
  let current = "";
  const hooks = new Map<string, Record<string, string[]>>();
  for (const line of app.printRoutes({ commonPrefix: false, includeHooks: true }).split("\n")) {
    const hook = /• \((\w+)\) (\[.*\])$/.exec(line);
    if (hook?.[1] && hook[2]) {
      const entry = hooks.get(current) ?? {};
      entry[hook[1]] = JSON.parse(hook[2]);
      hooks.set(current, entry);
      continue;
    }
    const node = /^([│ ]*)(?:[├└]── )?(\S+) \(([A-Z, ]+)\)$/.exec(line);
    if (!node?.[2] || !node[3]) continue;
    if (line.includes("── ")) {
      const depth = (node[1] ?? "").length / 4;
      segments.length = depth;
      segments[depth] = node[2];
    }
    current = `${node[3]} ${segments.join("")}`;
  }
  const found = hooks.get(`${method} ${url}`);
  if (!found) throw new Error(`no route ${method} ${url} in the route tree`);
  return found;
}

describe("on-the-fly compression of the API's answers", () => {
  it("compresses a large JSON answer for a client that asks, br first, with the same content", async () => {
    const plain = await t.app.inject({ url: "/api/openapi.json" });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD);
    for (const [acceptEncoding, expected, decompress] of [
      ["gzip, deflate, br", "br", brotliDecompressSync],
      ["gzip", "gzip", gunzipSync],
    ] as const) {
      const response = await t.app.inject({
        url: "/api/openapi.json",
        headers: { "accept-encoding": acceptEncoding },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-encoding"]).toBe(expected);
      expect(response.headers.vary).toBe("accept-encoding");
      expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(decompress(response.rawPayload).equals(plain.rawPayload)).toBe(true);
    }
    // Neither zstd nor deflate: br, gzip or nothing.
    const other = await t.app.inject({
      url: "/api/openapi.json",
      headers: { "accept-encoding": "deflate, zstd" },
    });
    expect(other.headers["content-encoding"]).toBeUndefined();
    expect(other.rawPayload.equals(plain.rawPayload)).toBe(true);
  });

  it("leaves small answers as they are", async () => {
    const health = await t.app.inject({ url: "/healthz", headers: { "accept-encoding": "br" } });
    expect(health.statusCode).toBe(200);
    expect(health.headers["content-encoding"]).toBeUndefined();

    const ads = await t.app.inject({
      url: "/api/ads",
      headers: { "x-api-key": apiKey, "accept-encoding": "br" },
    });
    expect(ads.statusCode, ads.body).toBe(200);
    expect(ads.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD);
    expect(ads.headers["content-encoding"]).toBeUndefined();
    expect(ads.json().ads).toHaveLength(1);
  });

  it("never touches the short link's 302 or the pixel's GIF", async () => {
    const ads = await t.app.inject({ url: "/api/ads", headers: { "x-api-key": apiKey } });
    const shortLink = new URL(ads.json().ads[0].ctaUrl).pathname;
    const follow = await t.app.inject({ url: shortLink, headers: BROWSER });
    expect(follow.statusCode).toBe(302);
    expect(follow.headers["content-encoding"]).toBeUndefined();
    expect(follow.headers.vary).toBeUndefined();
    const clickId = new URL(String(follow.headers.location)).searchParams.get("bclickid");
    expect(clickId).toBeTruthy();

    const pixel = await t.app.inject({
      url: `/api/marketing/conversion/${clickId}?type=signup&org=${buddy.organizationId}`,
      headers: BROWSER,
    });
    expect(pixel.statusCode).toBe(200);
    expect(pixel.headers["content-type"]).toBe("image/gif");
    expect(pixel.headers["content-encoding"]).toBeUndefined();
    expect(pixel.headers.vary).toBeUndefined();
  });

  it("attaches no hook to the tracking routes, nor to the answers that hand out a credential", () => {
    // The same check finds the plugin's hook where it is attached.
    expect(routeHooks(t.app, "GET", "/api/openapi.json").onSend).toHaveLength(1);
    expect(routeHooks(t.app, "GET", "/api/ads").onSend).toHaveLength(1);
    for (const [method, url] of [
      ["GET", "/s/:code"],
      ["GET", "/api/marketing/redirect"],
      ["GET", "/api/marketing/conversion/:clickId"],
      ["POST", "/api/auth"],
      ["POST", "/api/verify-email"],
      ["POST", "/api/api-keys"],
    ] as const) {
      const hooks = routeHooks(t.app, method, url);
      expect(hooks.onSend, `${method} ${url}`).toBeUndefined();
      expect(hooks.onRequest, `${method} ${url}`).toBeDefined();
    }
  });

  it("never hands a session token out compressed", async () => {
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth",
      headers: { "accept-encoding": "br" },
      payload: { email: caller.email, password: STRONG_PASSWORD, mode: "login" },
    });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json().token).toEqual(expect.any(String));
    expect(login.headers["content-encoding"]).toBeUndefined();
  });
});
