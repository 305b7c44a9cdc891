import { DAY_MS } from "@shared/days";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickEvents, conversions } from "../../db/schema";
import { createOrganization, createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../testing/app";
import { createSharedAds } from "../../testing/buddies";
import { createClickIds } from "./clicks/click-id";
import { signTrackedLink } from "./links/link-signature";

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrganization>>;
let b: Awaited<ReturnType<typeof createOrganization>>;
let trackedUrl: string;
let collateralId: string;

const BROWSER =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

beforeAll(async () => {
  t = await createTestApp();
  const shared = await createSharedAds(
    t,
    ["sharer", "advertiser"],
    [
      {
        name: "Try Advertiser",
        description: "The best tool.",
        ctaText: "Start",
        ctaUrl: "https://www.advertiser.example/start?utm_source=buddy&plan=pro",
      },
    ],
  );
  ({ sharer: a, advertiser: b } = shared);
  collateralId = shared.adIds[0] as string;
  trackedUrl = shared.trackedUrls[0] as string;
});
afterAll(() => t.close());

const clicks = (headers: Record<string, string>) =>
  t.app.inject({ url: "/api/metrics/clicks", headers }).then((r) => r.json());
// Each click is committed before its 302: reads see it at once.
const hitsCount = async () => (await t.database.db.select().from(clickEvents)).length;
const pathOf = (url: string) => url.slice(TEST_PUBLIC_URL.length);

describe("tracked links and short links", () => {
  it("gives a Buddy's collateral a signed tracked link of the contract's shape", () => {
    const url = new URL(trackedUrl);
    expect(url.origin + url.pathname).toBe(`${TEST_PUBLIC_URL}/api/marketing/redirect`);
    expect([...url.searchParams.keys()].sort()).toEqual(
      ["collateralId", "relationshipId", "sig", "sourceOrgId", "targetOrgId", "url"].sort(),
    );
    expect(url.searchParams.get("sourceOrgId")).toBe(a.organizationId);
    expect(url.searchParams.get("targetOrgId")).toBe(b.organizationId);
  });

  it("shortens only this platform's signed links, the same link to the same code", async () => {
    const shorten = (longUrl: unknown) =>
      t.app.inject({ method: "POST", url: "/api/short-url", headers: a.headers, payload: { longUrl } });
    const first = await shorten(trackedUrl);
    expect(first.statusCode).toBe(201);
    expect(first.json().shortUrl).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/s/[\\w-]{8}$`));
    expect((await shorten(trackedUrl)).json().shortUrl).toBe(first.json().shortUrl);
    for (const bad of ["https://evil.example/x", trackedUrl.replace("sig=", "sig=x"), "not a url", 42]) {
      const response = await shorten(bad);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: expect.any(String) });
    }
    expect(
      (await t.app.inject({ method: "POST", url: "/api/short-url", payload: { longUrl: trackedUrl } }))
        .statusCode,
    ).toBe(401);
  });

  it.each([
    ["malformed JSON", '{"longUrl": '],
    ["no longUrl", "{}"],
    ["a body that is no object", "[1, 2]"],
  ])("answers a short-url request with %s with 400 {message}, not 500", async (_name, payload) => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/short-url",
      headers: { ...a.headers, "content-type": "application/json" },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: expect.any(String) });
  });

  it("answers a click with the headers that act on a redirect, and pages keep the full set", async () => {
    const response = await t.app.inject({ url: pathOf(trackedUrl), headers: { "user-agent": BROWSER } });
    expect(response.statusCode).toBe(302);
    expect(response.headers).toMatchObject({
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
      "strict-transport-security": expect.stringContaining("max-age="),
    });
    expect(response.headers["content-security-policy"]).toBeUndefined();
    const api = await t.app.inject({ url: "/api/metrics/clicks", headers: a.headers });
    expect(api.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(api.headers["x-frame-options"]).toBe("SAMEORIGIN");
  });

  it("follows a short link in one hop: records the click and lands on the target with bclickid and its own query", async () => {
    const shortUrl = (
      await t.app.inject({
        method: "POST",
        url: "/api/short-url",
        headers: a.headers,
        payload: { longUrl: trackedUrl },
      })
    ).json().shortUrl;
    const before = { a: await clicks(a.headers), b: await clicks(b.headers) };
    const response = await t.app.inject({
      url: pathOf(shortUrl),
      headers: { "user-agent": BROWSER },
      remoteAddress: "203.0.113.7",
    });
    expect(response.statusCode).toBe(302);
    const location = new URL(response.headers.location as string);
    expect(location.origin + location.pathname).toBe("https://www.advertiser.example/start");
    expect(location.searchParams.get("utm_source")).toBe("buddy");
    expect(location.searchParams.get("plan")).toBe("pro");
    const clickId = location.searchParams.get("bclickid");
    expect(clickId).toMatch(/^[\w-]{20,}$/);
    const [row] = await t.database.db
      .select()
      .from(clickEvents)
      .where(eq(clickEvents.id, clickId ?? ""));
    expect(row).toMatchObject({
      verified: true,
      bot: false,
      duplicate: false,
      sourceOrgId: a.organizationId,
    });
    expect(JSON.stringify(row)).not.toContain("203.0.113.7");
    expect(await clicks(a.headers)).toEqual({ sent: before.a.sent + 1, received: before.a.received });
    expect(await clicks(b.headers)).toEqual({ sent: before.b.sent, received: before.b.received + 1 });

    // The same visitor again within the hour: kept, but not counted twice.
    const again = await t.app.inject({
      url: pathOf(shortUrl),
      headers: { "user-agent": BROWSER },
      remoteAddress: "203.0.113.7",
    });
    expect(again.statusCode).toBe(302);
    expect((await clicks(b.headers)).received).toBe(before.b.received + 1);
  });

  it("keeps HEAD requests, bots and mail scanners as events without counting them", async () => {
    const before = await clicks(b.headers);
    const events = await hitsCount();
    const path = pathOf(trackedUrl);
    const head = await t.app.inject({
      method: "HEAD",
      url: path,
      headers: { "user-agent": BROWSER },
      remoteAddress: "198.51.100.1",
    });
    expect(head.statusCode).toBe(302);
    const bot = await t.app.inject({
      url: path,
      headers: { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" },
      remoteAddress: "198.51.100.2",
    });
    expect(bot.statusCode).toBe(302);
    const scanner = await t.app.inject({
      url: path,
      headers: { "user-agent": BROWSER, referer: "https://nam02.safelinks.protection.outlook.com/?url=x" },
      remoteAddress: "198.51.100.3",
    });
    expect(scanner.statusCode).toBe(302);
    expect(await hitsCount()).toBe(events + 3);
    expect(await clicks(b.headers)).toEqual(before);
    const flagged = await t.database.db.select().from(clickEvents).where(eq(clickEvents.bot, true));
    expect(flagged.map((r) => r.botReason).sort()).toEqual(
      expect.arrayContaining(["head", "scanner-referrer", "user-agent"]),
    );
  });

  it("refuses a tampered signature or a URL off the collateral's host, recording nothing", async () => {
    const events = await hitsCount();
    const tampered = new URL(trackedUrl);
    tampered.searchParams.set("url", "https://evil.example/phish");
    expect((await t.app.inject({ url: pathOf(tampered.toString()) })).statusCode).toBe(400);
    const noSig = new URL(trackedUrl);
    noSig.searchParams.delete("sig");
    expect((await t.app.inject({ url: pathOf(noSig.toString()) })).statusCode).toBe(400);
    // Even correctly signed, a URL whose host is not the call to action's is no redirect.
    const offHost = signTrackedLink(TEST_PUBLIC_URL, t.config.appSecret ?? "", {
      relationshipId: "r",
      collateralId,
      sourceOrgId: a.organizationId,
      targetOrgId: b.organizationId,
      url: "https://evil.example/phish",
    });
    expect((await t.app.inject({ url: pathOf(offHost) })).statusCode).toBe(400);
    expect(await hitsCount()).toBe(events);
  });

  it("answers 404 for an unknown short code", async () => {
    expect((await t.app.inject({ url: "/s/nope1234" })).statusCode).toBe(404);
  });
});

describe("conversions", () => {
  async function freshClick(ip: string) {
    const response = await t.app.inject({
      url: pathOf(trackedUrl),
      headers: { "user-agent": BROWSER },
      remoteAddress: ip,
    });
    return new URL(response.headers.location as string).searchParams.get("bclickid") ?? "";
  }
  async function keyFor(org: typeof a) {
    return (
      await t.app.inject({
        method: "POST",
        url: "/api/api-keys",
        headers: org.headers,
        payload: { name: "k" },
      })
    ).json().key as string;
  }
  const leads = (headers: Record<string, string>) =>
    t.app.inject({ url: "/api/metrics/leads", headers }).then((r) => r.json());
  const convert = (key: string | undefined, payload: unknown) =>
    t.app.inject({
      method: "POST",
      url: "/api/marketing/conversion",
      headers: key ? { "x-api-key": key } : {},
      payload: payload as object,
    });

  it("records a lead once per click and type, for the receiving organization's key only", async () => {
    const clickId = await freshClick("192.0.2.10");
    const bKey = await keyFor(b);
    const aKey = await keyFor(a);
    const before = { a: await leads(a.headers), b: await leads(b.headers) };

    expect((await convert(aKey, { clickId, type: "signup" })).statusCode).toBe(404);
    expect((await convert(undefined, { clickId, type: "signup" })).statusCode).toBe(401);
    expect((await convert("bk_live_not-a-key", { clickId, type: "signup" })).statusCode).toBe(401);

    const first = await convert(bKey, { clickId, type: "signup", value: 49.5, metadata: { plan: "pro" } });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ id: expect.any(String), duplicate: false });
    const again = await convert(bKey, { clickId, type: "signup" });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ id: first.json().id, duplicate: true });

    // Two at the same moment: one lead.
    const [x, y] = await Promise.all([
      convert(bKey, { clickId, type: "trial" }),
      convert(bKey, { clickId, type: "trial" }),
    ]);
    expect([x?.statusCode, y?.statusCode].sort()).toEqual([200, 201]);

    expect(await leads(a.headers)).toEqual({ sent: before.a.sent + 2, received: before.a.received });
    expect(await leads(b.headers)).toEqual({ sent: before.b.sent, received: before.b.received + 2 });
  });

  it.each([
    [{ type: "signup" }, 400],
    [{ clickId: "x" }, 400],
    [{ clickId: "x", type: "bought" }, 400],
    [{ clickId: "x", type: "signup", value: "10" }, 400],
    [{ clickId: "x", type: "signup", metadata: [] }, 400],
    [{ clickId: "x", type: "signup", metadata: { blob: "x".repeat(5000) } }, 400],
    [{ clickId: "unknown-click", type: "signup" }, 404],
  ])("answers %o with %i", async (payload, status) => {
    const response = await convert(await keyFor(b), payload);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ message: expect.any(String) });
  });

  it("caps metadata in UTF-8 bytes: multi-byte text under 4096 characters but over 4096 bytes is a 400", async () => {
    const clickId = await freshClick("192.0.2.13");
    const key = await keyFor(b);
    // 2,100 characters of "é" are 4,200 bytes.
    const over = await convert(key, { clickId, type: "signup", metadata: { note: "é".repeat(2100) } });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ message: "metadata must be at most 4096 bytes as UTF-8 JSON" });
    const under = await convert(key, { clickId, type: "signup", metadata: { note: "é".repeat(2000) } });
    expect(under.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(conversions).where(eq(conversions.id, under.json().id));
    expect(row?.metadata).toEqual({ note: "é".repeat(2000) });
  });

  it("stops a revoked key at once", async () => {
    const created = (
      await t.app.inject({
        method: "POST",
        url: "/api/api-keys",
        headers: b.headers,
        payload: { name: "gone" },
      })
    ).json();
    await t.app.inject({ method: "DELETE", url: `/api/api-keys/${created.id}`, headers: b.headers });
    expect((await convert(created.key, { clickId: "x", type: "signup" })).statusCode).toBe(401);
  });

  it("the pixel needs no key: a GIF for the click's own organization, 400 without a type, 404 otherwise", async () => {
    const clickId = await freshClick("192.0.2.11");
    const pixel = (query: string) => t.app.inject({ url: `/api/marketing/conversion/${clickId}?${query}` });
    const ok = await pixel(`type=purchase&org=${b.organizationId}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers["content-type"]).toBe("image/gif");
    expect((await pixel(`type=purchase&org=${b.organizationId}`)).statusCode).toBe(200);
    expect((await pixel(`org=${b.organizationId}`)).statusCode).toBe(400);
    expect((await pixel(`type=nope&org=${b.organizationId}`)).statusCode).toBe(400);
    expect((await pixel(`type=purchase&org=${a.organizationId}`)).statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: `/api/marketing/conversion/unknown?type=purchase&org=${b.organizationId}` }))
        .statusCode,
    ).toBe(404);
  });

  it("treats clicks older than 30 days as expired", async () => {
    // The click id carries its time under the app's signature: one made 31 days ago, as the server would.
    const clickIds = createClickIds(t.app.config.appSecret ?? "");
    const old = clickIds.issue(a.organizationId, b.organizationId, Date.now() - 31 * DAY_MS);
    expect((await convert(await keyFor(b), { clickId: old, type: "signup" })).statusCode).toBe(404);
  });
});

describe("install scripts over HTTP", () => {
  it.each(["click.js", "conversion.js"])(
    "serves %s as cacheable JavaScript any origin may load",
    async (file) => {
      const response = await t.app.inject({ url: `/api/tracking/${file}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toContain("application/javascript");
      expect(response.headers["cache-control"]).toContain("max-age=86400");
      expect(response.headers["cross-origin-resource-policy"]).toBe("cross-origin");
      expect(response.headers["set-cookie"]).toBeUndefined();
      const again = await t.app.inject({
        url: `/api/tracking/${file}`,
        headers: { "if-none-match": response.headers.etag as string },
      });
      expect(again.statusCode).toBe(304);
    },
  );
});

describe("overview data", () => {
  it("gives 30 days of clicks and leads both ways, and recent activity newest first", async () => {
    const daily = (await t.app.inject({ url: "/api/metrics/daily", headers: a.headers })).json();
    expect(daily).toHaveLength(30);
    const today = daily.at(-1);
    expect(today.day).toBe(new Date().toISOString().slice(0, 10));
    expect(today.clicksSent).toBeGreaterThan(0);
    expect(today.leadsSent).toBeGreaterThan(0);
    const bToday = (await t.app.inject({ url: "/api/metrics/daily", headers: b.headers })).json().at(-1);
    expect(bToday).toMatchObject({ clicksReceived: today.clicksSent, leadsReceived: today.leadsSent });

    const activity = (await t.app.inject({ url: "/api/activity", headers: b.headers })).json();
    expect(activity.length).toBeGreaterThan(0);
    expect(activity.map((item: { kind: string }) => item.kind)).toEqual(
      expect.arrayContaining(["click_received", "lead_received"]),
    );
    const times = activity.map((item: { at: string }) => Date.parse(item.at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    expect(activity[0].organization.name).toBe("sharer");
    const aActivity = (await t.app.inject({ url: "/api/activity", headers: a.headers })).json();
    expect(
      aActivity.some(
        (item: { kind: string; organization: { name: string } }) =>
          item.kind === "new_buddy" && item.organization.name === "advertiser",
      ),
    ).toBe(true);
  });

  it("is empty for a new organization", async () => {
    const fresh = await createOrganization(t, "freshco");
    expect((await t.app.inject({ url: "/api/activity", headers: fresh.headers })).json()).toEqual([]);
  });
});
