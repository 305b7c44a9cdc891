import { randomInt } from "node:crypto";
import type { ClickReason } from "@shared/click-reasons";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANNELS } from "../../../db/change-notifications";
import { clickEvents } from "../../../db/schema";
import { createTestApp, STRONG_PASSWORD, TEST_PUBLIC_URL, type TestApp } from "../../../testing/app";
import { BROWSER_USER_AGENT, createSharedAds } from "../../../testing/buddies";

/**
 * CONTRACT §5: clicks that can't be bought. At most 3 counted clicks per network source (IPv4 /24,
 * IPv6 /64) per sender → advertiser pair per UTC day, whatever the user agent; none from where a
 * member of the sender signed in; a loopback client judged by the visitor rule alone; and every
 * stored click keeps why it did or did not count, in the export too.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * A browser's user agent of its own: a new visitor each time, as the replay of issue 36 was. A
 * counter keeps two in one run apart; the random base keeps apart the runs that share one Redis.
 */
const agentBase = randomInt(1_000_000_000);
let agents = 0;
const randomAgent = () =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.${agentBase + agents++}.0 Safari/537.36`;

type Pair = Awaited<ReturnType<typeof createSharedAds>>;
const pathOf = (url: string) => url.slice(TEST_PUBLIC_URL.length);

const click = (t: TestApp, url: string, remoteAddress: string, userAgent = randomAgent()) =>
  t.app.inject({ url: pathOf(url), headers: { "user-agent": userAgent }, remoteAddress });

async function reasonsOf(t: TestApp, pair: Pair): Promise<Record<string, number>> {
  const rows = await t.database.db
    .select({ reason: clickEvents.reason, verified: clickEvents.verified })
    .from(clickEvents)
    .where(
      and(
        eq(clickEvents.sourceOrgId, pair.sharer.organizationId),
        eq(clickEvents.targetOrgId, pair.advertiser.organizationId),
      ),
    );
  const counts: Record<string, number> = {};
  for (const row of rows) {
    // verified is reason = counted, always.
    expect(row.verified).toBe(row.reason === "counted");
    counts[row.reason] = (counts[row.reason] ?? 0) + 1;
  }
  return counts;
}

const receivedClicks = async (t: TestApp, pair: Pair) =>
  (
    (await t.app.inject({ url: "/api/metrics/clicks", headers: pair.advertiser.headers })).json() as {
      received: number;
    }
  ).received;

/** A member of the sender signs in (CONTRACT §3 login) from `remoteAddress`. */
async function signIn(t: TestApp, email: string, remoteAddress: string) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/auth",
    payload: { email, password: STRONG_PASSWORD, mode: "login" },
    remoteAddress,
  });
  expect(response.statusCode, response.body).toBe(200);
}

const ad = { name: "Try it", description: "The best tool.", ctaText: "Start" };

describe("clicks that can't be bought, on one instance", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("counts 3 of 35 clicks of one link from one address with random user agents", async () => {
    const pair = await createSharedAds(t, ["replaysharer", "replayadvertiser"], [ad]);
    const url = pair.trackedUrls[0] as string;
    for (let i = 0; i < 35; i++) {
      const response = await click(t, url, "203.0.113.9");
      expect(response.statusCode).toBe(302);
      // A person's click past the allowance still lands with a click id: a lead is the advertiser's to record.
      expect(new URL(String(response.headers.location)).searchParams.get("bclickid")).toMatch(/\S/);
    }
    expect(await reasonsOf(t, pair)).toEqual({ counted: 3, source_cap: 32 });
    expect(await receivedClicks(t, pair)).toBe(3);
    // The same /24, another address: the same network source.
    await click(t, url, "203.0.113.200");
    expect(await reasonsOf(t, pair)).toEqual({ counted: 3, source_cap: 33 });
  });

  it("counts all 35 from 35 network sources, IPv6 /64s among them", async () => {
    const pair = await createSharedAds(t, ["manysharer", "manyadvertiser"], [ad]);
    const url = pair.trackedUrls[0] as string;
    for (let i = 0; i < 30; i++) await click(t, url, `198.${18 + (i >> 4)}.${i}.9`);
    for (let i = 0; i < 5; i++) await click(t, url, `2001:db8:${i}:1::9`);
    // Two more hosts of one /64 already seen: that /64 has used 1 of its 3.
    await click(t, url, "2001:db8:0:1::a");
    await click(t, url, "2001:db8:0:1:ffff::b");
    await click(t, url, "2001:db8:0:1:ffff::c");
    expect(await reasonsOf(t, pair)).toEqual({ counted: 37, source_cap: 1 });
    expect(await receivedClicks(t, pair)).toBe(37);
  });

  it("counts nothing from where a member of the sender signed in, and leaves other senders alone", async () => {
    const pair = await createSharedAds(t, ["ownsharer", "ownadvertiser"], [ad]);
    const url = pair.trackedUrls[0] as string;
    await signIn(t, pair.sharer.email, "192.0.2.55");
    for (let i = 0; i < 5; i++) {
      const own = await click(t, url, `192.0.2.${60 + i}`);
      // Nor can it bring a lead: the sender's own visit lands without a click id.
      expect(own.statusCode).toBe(302);
      expect(new URL(String(own.headers.location)).searchParams.has("bclickid")).toBe(false);
    }
    expect(await reasonsOf(t, pair)).toEqual({ own_click: 5 });
    expect(await receivedClicks(t, pair)).toBe(0);
    // Own clicks used none of the source's allowance for another sender's link from there.
    const other = await createSharedAds(t, ["othersharer", "otheradvertiser"], [ad]);
    for (let i = 0; i < 3; i++) await click(t, other.trackedUrls[0] as string, `192.0.2.${70 + i}`);
    expect(await reasonsOf(t, other)).toEqual({ counted: 3 });
  });

  it("judges loopback clicks by the visitor rule alone: no cap, no own click", async () => {
    const pair = await createSharedAds(t, ["loopsharer", "loopadvertiser"], [ad]);
    const url = pair.trackedUrls[0] as string;
    await signIn(t, pair.sharer.email, "127.0.0.1");
    for (const address of ["127.0.0.1", "::1", "::ffff:127.0.0.1", "127.0.0.2", "127.0.0.1"]) {
      await click(t, url, address);
    }
    // The last one is a new user agent: a new visitor, so no repeat either.
    expect(await reasonsOf(t, pair)).toEqual({ counted: 5 });
  });

  it("exports why each click did not count: bot, repeat, burst, source_cap, own_click, blocked, not_live", async () => {
    const pair = await createSharedAds(
      t,
      ["reasonsharer", "reasonadvertiser"],
      [ad, { ...ad, name: "Second ad", ctaUrl: undefined }],
    );
    const [first, second] = pair.trackedUrls as [string, string];
    const person = BROWSER_USER_AGENT;
    expect((await click(t, first, "198.51.100.1", person)).statusCode).toBe(302); // counted
    await click(t, first, "198.51.100.1", person); // repeat
    await click(t, second, "198.51.100.1", person); // burst: another link within a second
    await click(t, first, "198.51.101.1", "curl/8.0"); // bot
    for (let i = 0; i < 4; i++) await click(t, first, `198.51.102.${i + 1}`); // 3 counted, source_cap
    await signIn(t, pair.sharer.email, "198.51.103.1");
    await click(t, first, "198.51.103.2"); // own_click

    const announced = async (change: () => Promise<{ statusCode: number; body: string }>) => {
      const heard = new Promise<void>((resolve) => {
        const stop = t.notifications.subscribe(CHANNELS.adsChanged, {
          onNotify() {
            stop();
            resolve();
          },
          onGap() {},
        });
      });
      const response = await change();
      expect(response.statusCode, response.body).toBe(200);
      await heard;
    };
    await announced(() =>
      t.app.inject({
        method: "PATCH",
        url: `/api/marketing/collateral/${pair.adIds[1]}`,
        headers: pair.advertiser.headers,
        payload: { status: "draft" },
      }),
    );
    const notLive = await click(t, second, "198.51.104.1");
    expect(notLive.headers.location).not.toContain("bclickid");
    await announced(() =>
      t.app.inject({
        method: "PATCH",
        url: `/api/relationships/${pair.relationshipId}`,
        headers: pair.sharer.headers,
        payload: { type: "competitor" },
      }),
    );
    const blocked = await click(t, first, "198.51.105.1");
    expect(blocked.statusCode).toBe(302);
    expect(blocked.headers.location).not.toContain("bclickid");

    const expected: Record<ClickReason, number> = {
      counted: 4,
      repeat: 1,
      burst: 1,
      bot: 1,
      source_cap: 1,
      own_click: 1,
      not_live: 1,
      blocked: 1,
    };
    expect(await reasonsOf(t, pair)).toEqual(expected);

    // The overview's breakdown: the same reasons, each side scoped to the caller's organization.
    const uncounted = async (headers: Record<string, string>, query = "?days=30") =>
      t.app.inject({ url: `/api/metrics/clicks/uncounted${query}`, headers });
    const { counted: _counted, ...notCounted } = expected;
    const breakdown = { total: 7, reasons: notCounted };
    const nothing = {
      total: 0,
      reasons: { bot: 0, repeat: 0, burst: 0, source_cap: 0, own_click: 0, blocked: 0, not_live: 0 },
    };
    const ofAdvertiser = await uncounted(pair.advertiser.headers);
    expect(ofAdvertiser.statusCode).toBe(200);
    expect(ofAdvertiser.json()).toEqual({ days: 30, sent: nothing, received: breakdown });
    expect((await uncounted(pair.sharer.headers, "")).json()).toEqual({
      days: 30,
      sent: breakdown,
      received: nothing,
    });
    expect((await uncounted(pair.sharer.headers, "?days=1")).json()).toMatchObject({
      days: 1,
      sent: breakdown,
    });
    for (const days of ["0", "367", "abc", "1.5", "-1"]) {
      const refused = await uncounted(pair.sharer.headers, `?days=${days}`);
      expect(refused.statusCode, days).toBe(400);
      expect(refused.json()).toEqual({ message: expect.stringContaining("days") });
    }
    expect((await t.app.inject({ url: "/api/metrics/clicks/uncounted" })).statusCode).toBe(401);
    // Another organization sees none of the pair's clicks.
    const outsider = await createSharedAds(t, ["reasonoutsider", "reasonoutsideradv"], [ad]);
    expect((await uncounted(outsider.sharer.headers)).json()).toEqual({
      days: 30,
      sent: nothing,
      received: nothing,
    });

    const today = new Date().toISOString().slice(0, 10);
    for (const [side, direction] of [
      [pair.advertiser, "received"],
      [pair.sharer, "sent"],
    ] as const) {
      const response = await t.app.inject({
        url: `/api/exports/clicks.csv?from=${today}&to=${today}`,
        headers: side.headers,
      });
      expect(response.statusCode).toBe(200);
      const [header, ...rows] = response.body.trim().split("\r\n");
      expect(header?.split(",").at(-1)).toBe("reason");
      const exported: Record<string, number> = {};
      for (const row of rows) {
        const cells = row.split(",");
        expect(cells[2]).toBe(direction);
        const reason = cells.at(-1) as string;
        expect(cells.at(-2)).toBe(String(reason === "counted"));
        exported[reason] = (exported[reason] ?? 0) + 1;
      }
      expect(exported).toEqual(expected);
    }
  });
});

describe("clicks that can't be bought, on two instances sharing Redis", () => {
  let a: TestApp;
  let b: TestApp;
  // Their keys name this run's organizations and keyed sources only, and expire on their own.
  beforeAll(async () => {
    const env = { REDIS_URL };
    a = await createTestApp({ env });
    b = await createTestApp({ env, database: a.database, mail: a.mail });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it("shares the source cap: 35 clicks from one address, alternating instances, count 3", async () => {
    const pair = await createSharedAds(a, ["redissharer", "redisadvertiser"], [ad]);
    const url = pair.trackedUrls[0] as string;
    for (let i = 0; i < 35; i++) {
      expect((await click(i % 2 === 0 ? a : b, url, "203.0.113.44")).statusCode).toBe(302);
    }
    expect(await reasonsOf(a, pair)).toEqual({ counted: 3, source_cap: 32 });
    expect(await receivedClicks(b, pair)).toBe(3);
  });

  it("knows on one instance a member's sign-in on the other", async () => {
    const pair = await createSharedAds(a, ["redisownsharer", "redisownadvertiser"], [ad]);
    const url = pair.trackedUrls[0] as string;
    await signIn(b, pair.sharer.email, "203.0.113.80");
    for (let i = 0; i < 3; i++) await click(a, url, `203.0.113.${90 + i}`);
    expect(await reasonsOf(a, pair)).toEqual({ own_click: 3 });
  });
});
