import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSecurityHeaders, securityHeaders } from "../../plugins/security-headers";
import { comparableHeaders, DECLINED, HANDED_BACK, serveFastPath } from "../../test-fast-path";
import { createApiKey, createOrganization, createTestApp, type TestApp } from "../../test-helpers";
import { createAdsFastPath } from "./ads-fast-path";

let t: TestApp;
let fast: Awaited<ReturnType<typeof serveFastPath>>;
let caller: Awaited<ReturnType<typeof createOrganization>>;
let key: string;
let keyId: string;

const viaRoute = (query: string, apiKey: string = key) =>
  t.app.inject({ url: `/api/ads${query}`, headers: { "x-api-key": apiKey } });
const viaFastPath = (query: string, apiKey: string = key) =>
  fetch(`${fast.origin}/api/ads${query}`, { headers: { "x-api-key": apiKey } });

beforeAll(async () => {
  t = await createTestApp();
  caller = await createOrganization(t, "fastcaller");
  const partner = await createOrganization(t, "fastpartner");
  await t.app.inject({
    method: "POST",
    url: "/api/relationships",
    headers: caller.headers,
    payload: { organizationId: partner.organizationId, type: "complement" },
  });
  await t.app.inject({
    method: "POST",
    url: "/api/marketing/collateral",
    headers: partner.headers,
    payload: {
      name: "<b>Fast</b> & safe",
      description: "An ad",
      ctaText: "Go",
      ctaUrl: "https://fastpartner.example/go",
      status: "active",
    },
  });
  const created = await createApiKey(t, caller, "fast");
  key = created.key;
  keyId = created.id;
  fast = await serveFastPath(
    createAdsFastPath({
      headers: apiSecurityHeaders(securityHeaders()),
      trustProxy: false,
      closing: () => false,
      log: t.app.log,
      apiKeys: t.app.apiKeys,
      ads: t.app.ads,
    }),
  );
});
afterAll(async () => {
  await fast.close();
  await t.close();
});

describe("the Ads API's fast path", () => {
  it("declines a key it has not seen yet, then answers exactly as the route does, in every format", async () => {
    const other = (await createApiKey(t, caller, "new")).key;
    expect((await viaFastPath("", other)).status).toBe(DECLINED);

    for (const query of ["", "?format=json&limit=2", "?format=html&template=card", "?format=text"]) {
      const route = await viaRoute(query);
      expect(route.statusCode).toBe(200);
      const answer = await viaFastPath(query);
      expect(answer.status).toBe(200);
      expect(comparableHeaders(answer.headers)).toEqual(comparableHeaders(route.headers));
      expect(await answer.text()).toBe(route.body);
    }
    const html = await (await viaFastPath("?format=html")).text();
    expect(html).toContain("&lt;b&gt;Fast&lt;/b&gt; &amp; safe");
    expect(html).not.toContain("<b>Fast</b>");
  });

  it("sends the API's headers: a CSP under which nothing loads, no sniffing, never cached", async () => {
    await viaRoute("");
    const answer = await viaFastPath("");
    expect(answer.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  it("leaves every query the schema must judge to the route", async () => {
    await viaRoute("");
    for (const query of ["?limit=6", "?limit=0", "?format=xml", "?limit=1&limit=2", "/", "?template=wide"])
      expect((await viaFastPath(query)).status).toBe(DECLINED);
    expect((await viaRoute("?limit=6")).statusCode).toBe(400);
    expect((await fetch(`${fast.origin}/api/adsx`, { headers: { "x-api-key": key } })).status).toBe(DECLINED);
    expect((await viaFastPath("", "bk_live_unknown")).status).toBe(DECLINED);
  });

  it("stops serving a revoked key at once", async () => {
    await viaRoute("");
    expect((await viaFastPath("")).status).toBe(200);
    await t.app.inject({ method: "DELETE", url: `/api/api-keys/${keyId}`, headers: caller.headers });
    expect((await viaFastPath("")).status).toBe(DECLINED);
    expect((await viaRoute("")).statusCode).toBe(401);
  });

  it("hands an organization with nothing to serve back to the route, which answers 404", async () => {
    const lonely = await createOrganization(t, "fastlonely");
    const lonelyKey = (await createApiKey(t, lonely, "l")).key;
    expect((await viaRoute("", lonelyKey)).statusCode).toBe(404);
    expect((await viaFastPath("", lonelyKey)).status).toBe(HANDED_BACK);
  });
});
