import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickEvents, conversions } from "../../../db/schema";
import {
  createApiKey,
  type createOrganization,
  createTestApp,
  TEST_PUBLIC_URL,
  type TestApp,
} from "../../../testing/app";
import { createSharedAds } from "../../../testing/buddies";

// CONTRACT §5: a hit that is not a person's never carries a click id that can record a lead.
let t: TestApp;
let origin: string;
let sharer: Awaited<ReturnType<typeof createOrganization>>;
let advertiser: Awaited<ReturnType<typeof createOrganization>>;
let advertiserKey: string;
/** Two ads of one advertiser shared by one sharer: one mail's worth of links. */
let links: [string, string];
let shortPath: string;

const BROWSER =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const pathOf = (url: string) => url.slice(TEST_PUBLIC_URL.length);
const bclickidOf = (location: string | null | undefined) =>
  new URL(location ?? "").searchParams.get("bclickid");

beforeAll(async () => {
  t = await createTestApp();
  const shared = await createSharedAds(
    t,
    ["botsharer", "botadvertiser"],
    ["First ad", "Second ad"].map((name) => ({
      name,
      description: "The best tool.",
      ctaText: "Start",
      ctaUrl: "https://botadvertiser.example/start?utm_source=buddy",
    })),
  );
  ({ sharer, advertiser } = shared);
  links = shared.trackedUrls.map(pathOf) as [string, string];
  const short = await t.app.inject({
    method: "POST",
    url: "/api/short-url",
    headers: sharer.headers,
    payload: { longUrl: `${TEST_PUBLIC_URL}${links[0]}` },
  });
  shortPath = pathOf(short.json().shortUrl);
  advertiserKey = (await createApiKey(t, advertiser)).key;
  origin = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => t.close());

const storedClicks = (ids?: string[]) => {
  const query = t.database.db.select().from(clickEvents);
  return ids ? query.where(inArray(clickEvents.id, ids)) : query;
};
const leadsOf = (clickId: string) =>
  t.database.db.select().from(conversions).where(eq(conversions.clickId, clickId));
const pixel = (clickId: string, type = "signup") =>
  t.app.inject({
    url: `/api/marketing/conversion/${clickId}?type=${type}&org=${advertiser.organizationId}`,
  });
const serverCall = (clickId: string, type = "signup") =>
  t.app.inject({
    method: "POST",
    url: "/api/marketing/conversion",
    headers: { "x-api-key": advertiserKey },
    payload: { clickId, type },
  });

/** The hits a redirect recorded since `before`, newest last. */
async function clicksSince(before: number) {
  const rows = await storedClicks();
  return rows.slice(before);
}

/** No id to use, and the ids the hits were stored under record nothing either way. */
async function expectNoLeadFrom(locations: Array<string | null | undefined>, rowIds: string[]) {
  for (const location of locations) expect(bclickidOf(location)).toBeNull();
  expect(rowIds.length).toBeGreaterThan(0);
  for (const id of rowIds) {
    const byPixel = await pixel(id);
    expect(byPixel.statusCode).toBe(404);
    expect(byPixel.json()).toEqual({ message: "Click id not found" });
    expect((await serverCall(id)).statusCode).toBe(404);
    expect(await leadsOf(id)).toHaveLength(0);
  }
}

describe("leads only from people's clicks", () => {
  it("gives a bot user agent, a HEAD and a mail scanner's hit no click id, and their stored ids record nothing", async () => {
    const before = (await storedClicks()).length;
    const answers = [
      await t.app.inject({
        url: links[0],
        headers: { "user-agent": "curl/8.0 Googlebot" },
        remoteAddress: "198.51.100.21",
      }),
      await t.app.inject({
        method: "HEAD",
        url: links[0],
        headers: { "user-agent": BROWSER },
        remoteAddress: "198.51.100.22",
      }),
      await t.app.inject({
        url: links[0],
        headers: { "user-agent": BROWSER, referer: "https://eur01.safelinks.protection.outlook.com/?url=x" },
        remoteAddress: "198.51.100.23",
      }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(302);
      // The reader still lands where the ad points.
      expect(answer.headers.location).toBe("https://botadvertiser.example/start?utm_source=buddy");
    }
    const rows = await clicksSince(before);
    expect(rows.map((row) => row.botReason).sort()).toEqual(["head", "scanner-referrer", "user-agent"]);
    await expectNoLeadFrom(
      answers.map((answer) => answer.headers.location),
      rows.map((row) => row.id),
    );
  });

  it("gives the second link of a burst no click id", async () => {
    const visitor = { headers: { "user-agent": BROWSER }, remoteAddress: "198.51.100.31" };
    const first = await t.app.inject({ url: links[0], ...visitor });
    const second = await t.app.inject({ url: links[1], ...visitor });
    expect(bclickidOf(first.headers.location)).not.toBeNull();
    const rows = await storedClicks();
    const burst = rows.filter((row) => row.botReason === "burst");
    expect(burst).toHaveLength(1);
    await expectNoLeadFrom(
      [second.headers.location],
      burst.map((row) => row.id),
    );
  });

  it("answers a bot the same way over HTTP, the link in memory", async () => {
    const before = (await storedClicks()).length;
    // The first puts the link in memory; the second is answered from there.
    const answers: Response[] = [];
    for (let i = 0; i < 2; i++) {
      answers.push(
        await fetch(`${origin}${shortPath}`, {
          redirect: "manual",
          headers: { "user-agent": "curl/8.0 Googlebot" },
        }),
      );
    }
    for (const answer of answers) expect(answer.status).toBe(302);
    const rows = await clicksSince(before);
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.bot)).toBe(true);
    await expectNoLeadFrom(
      answers.map((answer) => answer.headers.get("location")),
      rows.map((row) => row.id),
    );
    // The pixel refuses their ids too.
    for (const row of rows) {
      const answer = await fetch(
        `${origin}/api/marketing/conversion/${row.id}?type=trial&org=${advertiser.organizationId}`,
      );
      expect(answer.status).toBe(404);
    }
    expect(await leadsOf(rows[0]?.id ?? "")).toHaveLength(0);
  });

  it("still gives a person's click a click id that records one lead per type", async () => {
    const answer = await t.app.inject({
      url: links[1],
      headers: { "user-agent": BROWSER },
      remoteAddress: "198.51.100.41",
    });
    const clickId = bclickidOf(answer.headers.location) ?? "";
    expect(clickId).not.toBe("");
    const [row] = await storedClicks([clickId]);
    expect(row).toMatchObject({ bot: false, verified: true });

    const types = ["signup", "trial", "purchase", "upgrade", "activation", "referral"];
    for (const type of types) expect((await pixel(clickId, type)).statusCode).toBe(200);
    for (const type of types) expect((await pixel(clickId, type)).statusCode).toBe(200);
    const again = await serverCall(clickId, "signup");
    expect(again.statusCode).toBe(200);
    expect(again.json().duplicate).toBe(true);
    expect((await leadsOf(clickId)).map((lead) => lead.type).sort()).toEqual([...types].sort());
  });
});
