import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickEvents } from "../../db/schema";
import { createOrganization, createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../test-helpers";
import { signTrackedLink } from "./link-signature";

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrganization>>;
let b: Awaited<ReturnType<typeof createOrganization>>;
let trackedUrl: string;
let collateralId: string;

const BROWSER =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrganization(t, "sharer");
  b = await createOrganization(t, "advertiser");
  await t.app.inject({
    method: "POST",
    url: "/api/relationships",
    headers: a.headers,
    payload: { organizationId: b.organizationId, type: "complement" },
  });
  const created = await t.app.inject({
    method: "POST",
    url: "/api/marketing/collateral",
    headers: b.headers,
    payload: {
      name: "Try Advertiser",
      description: "The best tool.",
      ctaText: "Start",
      ctaUrl: "https://www.advertiser.example/start?utm_source=buddy&plan=pro",
      status: "active",
    },
  });
  collateralId = created.json().id;
  const list = await t.app.inject({
    url: `/api/marketing/collateral?organizationId=${b.organizationId}`,
    headers: a.headers,
  });
  trackedUrl = list.json()[0].trackedUrl;
});
afterAll(() => t.close());

const clicks = (headers: Record<string, string>) =>
  t.app.inject({ url: "/api/metrics/clicks", headers }).then((r) => r.json());
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
      expect(response.json()).toEqual({ error: expect.any(String) });
    }
    expect(
      (await t.app.inject({ method: "POST", url: "/api/short-url", payload: { longUrl: trackedUrl } }))
        .statusCode,
    ).toBe(401);
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
