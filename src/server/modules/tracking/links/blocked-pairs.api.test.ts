import type { Activity } from "@shared/tracking";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANNELS } from "../../../db/change-notifications";
import { clickEvents } from "../../../db/schema";
import { createApiKey, createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../../testing/app";
import { BROWSER_USER_AGENT, createBuddies } from "../../../testing/buddies";

/**
 * CONTRACT §5: a click on a link between a pair where either side now blocks the other redirects
 * without `bclickid` and counts nothing, and neither side's activity lists the pair. Two instances
 * on one database, as behind a balancer: both had the link's ad in memory before the block, and
 * the block's announcement reaches both.
 */
let a: TestApp;
let b: TestApp;
/** D, the advertiser, and G, the Buddy that shares D's ad. */
let buddies: Awaited<ReturnType<typeof createBuddies>>;
let advertiserKey: string;

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({ database: a.database, mail: a.mail });
  buddies = await createBuddies(a, ["blockadvertiser", "blocksharer"]);
  advertiserKey = (await createApiKey(a, buddies.org)).key;
  // A lead on G's earlier click, so both activities list leads of the pair too.
  const lead = await a.app.inject({
    method: "POST",
    url: "/api/marketing/conversion",
    headers: { "x-api-key": advertiserKey },
    payload: { clickId: buddies.clickId, type: "signup" },
  });
  expect(lead.statusCode, lead.body).toBe(201);
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const advertiser = () => buddies.org;
const sharer = () => buddies.partner;

// Each hit from its own visitor and network source: no repeat, burst or source cap decides here.
let visitor = 0;
const follow = (t: TestApp, path: string) => {
  visitor++;
  return t.app.inject({
    url: path,
    headers: { "user-agent": BROWSER_USER_AGENT },
    remoteAddress: `198.${18 + (visitor >> 8)}.${visitor & 255}.7`,
  });
};
const bclickidOf = (response: { headers: { location?: unknown } }) =>
  new URL(String(response.headers.location)).searchParams.get("bclickid");
const links = () => [buddies.trackedUrl.slice(TEST_PUBLIC_URL.length), buddies.shortPath];

/** Every trace a click leaves: its row, D's received clicks and G's sent ones. */
async function traces() {
  const clicks = async (headers: Record<string, string>) =>
    (await a.app.inject({ url: "/api/metrics/clicks", headers })).json() as {
      sent: number;
      received: number;
    };
  return {
    events: (await a.database.db.select({ id: clickEvents.id }).from(clickEvents)).length,
    received: (await clicks(advertiser().headers)).received,
    sent: (await clicks(sharer().headers)).sent,
  };
}

/** Clicks stored as `blocked` (CONTRACT §5): never verified, never a usable click id. */
async function blockedClicks() {
  const rows = await a.database.db
    .select({ verified: clickEvents.verified, bot: clickEvents.bot })
    .from(clickEvents)
    .where(eq(clickEvents.reason, "blocked"));
  expect(rows.every((row) => !row.verified && !row.bot)).toBe(true);
  return rows.length;
}

/** The kinds of the activity items `of` lists about `about`, on either instance. */
async function activityAbout(
  t: TestApp,
  of: { headers: Record<string, string> },
  about: { organizationId: string },
) {
  const response = await t.app.inject({ url: "/api/activity", headers: of.headers });
  expect(response.statusCode).toBe(200);
  return (response.json() as Activity)
    .filter((item) => item.organization.id === about.organizationId)
    .map((item) => item.kind)
    .sort();
}

/** A relationship change through the API, returning once both instances have heard it announced. */
async function change(headers: Record<string, string>, relationshipId: string, type: string) {
  const heard = [a, b].map(
    (t) =>
      new Promise<void>((resolve) => {
        const stop = t.notifications.subscribe(CHANNELS.adsChanged, {
          onNotify() {
            stop();
            resolve();
          },
          onGap() {},
        });
      }),
  );
  const response = await a.app.inject({
    method: "PATCH",
    url: `/api/relationships/${relationshipId}`,
    headers,
    payload: { type },
  });
  expect(response.statusCode, response.body).toBe(200);
  await Promise.all(heard);
}

/** Every link followed on both instances: each counted with a click id, or none. */
async function followEverywhere(counted: boolean) {
  for (const t of [a, b]) {
    for (const path of links()) {
      const response = await follow(t, path);
      expect(response.statusCode).toBe(302);
      if (counted) expect(bclickidOf(response), path).toMatch(/\S/);
      else expect(response.headers.location, path).toBe(buddies.ads.org.ctaUrl);
    }
  }
}

/** Whether both activities, on both instances, list the pair: at least `kinds` of it, or nothing. */
async function expectActivities(
  listed: boolean,
  kinds = { advertiser: ["click_received"], sharer: ["click_sent"] },
) {
  for (const t of [a, b]) {
    const ofAdvertiser = await activityAbout(t, advertiser(), sharer());
    const ofSharer = await activityAbout(t, sharer(), advertiser());
    if (listed) {
      for (const kind of kinds.advertiser) expect(ofAdvertiser).toContain(kind);
      for (const kind of kinds.sharer) expect(ofSharer).toContain(kind);
    } else {
      expect(ofAdvertiser).toEqual([]);
      expect(ofSharer).toEqual([]);
    }
  }
}

const BLOCKS = [
  ["the advertiser blocks the sharer", () => advertiser().headers, () => buddies.relationships.toPartner.id],
  ["the sharer blocks the advertiser", () => sharer().headers, () => buddies.relationships.toOrg.id],
] as const;

// First, while the activities hold a few items only: every kind of the pair's items goes and comes back.
describe("the activities of a blocked pair", () => {
  it.each(BLOCKS)("list none of its clicks, leads or Buddy while %s", async (_name, headers, id) => {
    const everything = {
      advertiser: ["click_received", "lead_received", "new_buddy"],
      sharer: ["click_sent", "lead_sent", "new_buddy"],
    };
    await expectActivities(true, everything);
    await change(headers(), id(), "competitor");
    await expectActivities(false);
    await change(headers(), id(), "complement");
    await expectActivities(true, everything);
  });
});

describe.each(BLOCKS)("when %s", (_name, blockerHeaders, relationshipId) => {
  it("follows the sharer's old links without a click id and counts nothing, on every instance, until unblocked", async () => {
    // Both instances have the ad (and whom its advertiser blocks) in memory before the block.
    await followEverywhere(true);
    await expectActivities(true);

    await change(blockerHeaders(), relationshipId(), "competitor");
    const before = await traces();
    const blockedBefore = await blockedClicks();
    await followEverywhere(false);
    const clicks = 2 * links().length;
    // Stored, so the sender can see why they counted nothing; counted nowhere.
    expect(await traces()).toEqual({ ...before, events: before.events + clicks });
    expect(await blockedClicks()).toBe(blockedBefore + clicks);
    await expectActivities(false);

    await change(blockerHeaders(), relationshipId(), "complement");
    await followEverywhere(true);
    expect(await traces()).toEqual({
      events: before.events + 2 * clicks,
      received: before.received + clicks,
      sent: before.sent + clicks,
    });
    await expectActivities(true);
  });
});
