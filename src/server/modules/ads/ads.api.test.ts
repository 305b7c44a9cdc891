import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANNELS } from "../../db/change-notifications";
import { createOrganization, createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../testing/app";

let t: TestApp;
let caller: Awaited<ReturnType<typeof createOrganization>>;
let buddy: Awaited<ReturnType<typeof createOrganization>>;
let key: string;

async function addBuddy(from: typeof caller, to: typeof caller, type = "complement") {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/relationships",
    headers: from.headers,
    payload: { organizationId: to.organizationId, type },
  });
  return response.json() as { id: string };
}
async function publish(org: typeof caller, name: string) {
  return (
    await t.app.inject({
      method: "POST",
      url: "/api/marketing/collateral",
      headers: org.headers,
      payload: {
        name,
        description: `About ${name}`,
        ctaText: "Try it",
        ctaUrl: `https://${org.domain}/go`,
        status: "active",
      },
    })
  ).json() as { id: string };
}
const ads = (query = "", apiKey: string | undefined = key) =>
  t.app.inject({ url: `/api/ads${query}`, headers: apiKey ? { "x-api-key": apiKey } : {} });

beforeAll(async () => {
  t = await createTestApp();
  caller = await createOrganization(t, "adcaller");
  buddy = await createOrganization(t, "adbuddy");
  key = (
    await t.app.inject({
      method: "POST",
      url: "/api/api-keys",
      headers: caller.headers,
      payload: { name: "ads" },
    })
  ).json().key;
});
afterAll(() => t.close());

describe("the public Ads API", () => {
  it("answers 401 without a valid key and 404 when there is nothing to serve", async () => {
    expect((await ads("", "")).statusCode).toBe(401);
    expect((await ads("", "bk_live_wrong")).statusCode).toBe(401);
    // The first answer waits for the eligible set to load; the second is made from it, cached.
    for (let i = 0; i < 2; i++) {
      const none = await ads();
      expect(none.statusCode).toBe(404);
      expect(none.json()).toEqual({
        message: "No ads found: you have no active complementary relationships with active collateral",
      });
    }
  });

  it("serves a Buddy's active collateral with a short tracked link, in json, html and text", async () => {
    await addBuddy(caller, buddy);
    await publish(buddy, "<script>x</script>");
    const json = await ads("?format=json&limit=3");
    expect(json.statusCode).toBe(200);
    const [ad] = json.json().ads;
    expect(ad).toMatchObject({ name: "<script>x</script>", company: { domain: "adbuddy.example" } });
    expect(ad.ctaUrl).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/s/[\\w-]+$`));
    // The short link follows to the collateral's call to action.
    const follow = await t.app.inject({
      url: ad.ctaUrl.slice(TEST_PUBLIC_URL.length),
      headers: { "user-agent": "Mozilla/5.0 Chrome/130" },
    });
    expect(follow.statusCode).toBe(302);

    const html = await ads("?format=html&template=banner");
    expect(html.headers["content-type"]).toContain("text/html");
    expect(html.body).toContain("&lt;script&gt;x&lt;/script&gt;");
    expect(html.body).not.toContain("<script>");
    expect(html.body).toContain("max-width:800px");
    const text = await ads("?format=text");
    expect(text.headers["content-type"]).toContain("text/plain");
    expect(text.body).toContain("Try it: http://buddy.test/s/");
  });

  it.each(["?limit=0", "?limit=6", "?limit=abc", "?format=xml", "?template=huge"])(
    "refuses %s with 400",
    async (query) => {
      expect((await ads(query)).statusCode).toBe(400);
    },
  );

  it("never serves either side of a block list, and sees changes at once", async () => {
    const blocker = await createOrganization(t, "adblocker");
    await addBuddy(caller, blocker);
    await publish(blocker, "Blocker ad");
    const names = async () => {
      const seen = new Set<string>();
      for (let i = 0; i < 6; i++) for (const ad of (await ads("?limit=5")).json().ads) seen.add(ad.name);
      return seen;
    };
    expect(await names()).toContain("Blocker ad");
    // The blocker puts the caller on its block list: its ads stop at once for the caller.
    await addBuddy(blocker, caller, "competitor");
    expect(await names()).not.toContain("Blocker ad");
  });

  it("drops the eligible ads cached on another instance when collateral changes", async () => {
    const other = await createTestApp({ database: t.database, mail: t.mail });
    try {
      const fresh = await createOrganization(t, "adfresh");
      await addBuddy(caller, fresh);
      await publish(fresh, "First ad");
      const namesOn = async (app: TestApp) => {
        const seen = new Set<string>();
        for (let i = 0; i < 8; i++)
          for (const ad of (
            await app.app.inject({ url: "/api/ads?limit=5", headers: { "x-api-key": key } })
          ).json().ads)
            seen.add(ad.name);
        return seen;
      };
      expect(await namesOn(other)).toContain("First ad");
      const heard = new Promise<void>((resolve) => {
        const stop = other.notifications.subscribe(CHANNELS.adsChanged, {
          onNotify() {
            stop();
            resolve();
          },
          onGap() {},
        });
      });
      await publish(fresh, "Second ad");
      await heard;
      expect(await namesOn(other)).toContain("Second ad");
    } finally {
      await other.close();
    }
  });

  it("never answers 5xx to odd queries", async () => {
    for (const query of [
      "?limit=1e400",
      "?limit=&format=",
      "?format[]=json",
      "?limit=5&limit=1",
      "?%zz=1",
      "?template=card&format=html&includeSuggestions=maybe",
    ]) {
      expect((await ads(query)).statusCode, query).toBeLessThan(500);
    }
  });
});
