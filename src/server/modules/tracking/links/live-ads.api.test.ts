import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANNELS } from "../../../db/change-notifications";
import { clickEvents, organizations } from "../../../db/schema";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../../testing/app";
import { BROWSER_USER_AGENT, createBuddies } from "../../../testing/buddies";
import { signTrackedLink } from "./link-signature";
import { NOT_SHAREABLE } from "./live-ads";

/**
 * Only live ads count (docs/tracking.md): a draft's link, or one of an ad whose author's domain is
 * not proven, leads to the page but counts nothing (stored as `not_live`) and carries no click id; an archived ad's
 * links, already out in newsletters, still count. Only an active ad gets a new link.
 */
let t: TestApp;
let buddies: Awaited<ReturnType<typeof createBuddies>>;

beforeAll(async () => {
  t = await createTestApp();
  buddies = await createBuddies(t, ["liveads", "livefan"]);
});
afterAll(() => t.close());

const pathOf = (url: string) => url.slice(TEST_PUBLIC_URL.length);
// Each hit from its own visitor and network source: no repeat, burst or source cap decides what
// these tests count.
let visitor = 0;
const follow = (path: string) => {
  visitor++;
  return t.app.inject({
    url: path,
    headers: { "user-agent": BROWSER_USER_AGENT },
    remoteAddress: `198.${51 + (visitor >> 8)}.${visitor & 255}.7`,
  });
};
const bclickidOf = (response: { headers: { location?: unknown } }) =>
  new URL(String(response.headers.location)).searchParams.get("bclickid");

/**
 * Every trace a click leaves: its row, both sides' verified counts, and the clicks stored as
 * `not_live` (CONTRACT §5: kept with their reason, never verified).
 */
async function traces() {
  const metrics = async (headers: Record<string, string>) =>
    (await t.app.inject({ url: "/api/metrics/clicks", headers })).json();
  const notLive = await t.database.db
    .select({ verified: clickEvents.verified })
    .from(clickEvents)
    .where(eq(clickEvents.reason, "not_live"));
  expect(notLive.every((row) => !row.verified)).toBe(true);
  return {
    events: (await t.database.db.select().from(clickEvents)).length,
    notLive: notLive.length,
    sent: (await metrics(buddies.partner.headers)).sent,
    received: (await metrics(buddies.org.headers)).received,
  };
}

const listedByPartner = async () =>
  (
    await t.app.inject({
      url: `/api/marketing/collateral?organizationId=${buddies.org.organizationId}`,
      headers: buddies.partner.headers,
    })
  ).json() as { id: string; status: string; ctaUrl: string; trackedUrl?: string | null }[];

const shorten = (longUrl: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/short-url",
    headers: buddies.partner.headers,
    payload: { longUrl },
  });

/** Returns once this instance has heard the change announced: at once on PGlite, soon after on PostgreSQL. */
async function announced(change: () => Promise<void>) {
  const heard = new Promise<void>((resolve) => {
    const stop = t.notifications.subscribe(CHANNELS.adsChanged, {
      onNotify() {
        stop();
        resolve();
      },
      onGap() {},
    });
  });
  await change();
  await heard;
}

const setStatus = (headers: Record<string, string>, id: string, status: string) =>
  announced(async () => {
    const response = await t.app.inject({
      method: "PATCH",
      url: `/api/marketing/collateral/${id}`,
      headers,
      payload: { status },
    });
    expect(response.statusCode, response.body).toBe(200);
  });

/** The partner's own link to one of the advertiser's ads, signed as the server signs it. */
const signedLink = (collateralId: string, url: string) =>
  signTrackedLink(TEST_PUBLIC_URL, t.config.appSecret ?? "", {
    relationshipId: buddies.relationships.toOrg.id,
    collateralId,
    sourceOrgId: buddies.partner.organizationId,
    targetOrgId: buddies.org.organizationId,
    url,
  });

describe("only live ads count", () => {
  let draftId: string;
  let draftLink: string;
  let draftTarget: string;

  beforeAll(async () => {
    // An ad the partner wrote for its Buddy, then took back to a draft.
    const written = await t.app.inject({
      method: "POST",
      url: `/api/marketing/generate?organizationId=${buddies.org.organizationId}&autoSave=true`,
      headers: buddies.partner.headers,
    });
    expect(written.statusCode, written.body).toBe(201);
    draftId = written.json().id;
    draftTarget = written.json().ctaUrl;
    await setStatus(buddies.partner.headers, draftId, "draft");
    draftLink = signedLink(draftId, draftTarget);
  });

  it("gives a draft no tracked link, and shortens none of its hand-signed links", async () => {
    const listed = await listedByPartner();
    const draft = listed.find((item) => item.id === draftId);
    expect(draft).toMatchObject({ status: "draft" });
    expect(draft?.trackedUrl ?? null).toBeNull();
    // The control: the Buddy's active ad in the same list has one.
    expect(listed.find((item) => item.id === buddies.ads.org.id)?.trackedUrl).toBe(buddies.trackedUrl);

    const refused = await shorten(draftLink);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: NOT_SHAREABLE.inactive });
  });

  it("takes a draft's signed link to its page without a click id, counting nothing", async () => {
    const before = await traces();
    const response = await follow(pathOf(draftLink));
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(draftTarget);
    expect(await traces()).toEqual({ ...before, events: before.events + 1, notLive: before.notLive + 1 });
  });

  it("takes an unproven company's links to its page without a click id, counting nothing", async () => {
    // As legacy data would be, announced as every service that changes a proof announces it.
    const prove = (verifiedAt: Date | null) =>
      announced(async () => {
        await t.database.db
          .update(organizations)
          .set({ domainVerifiedAt: verifiedAt })
          .where(eq(organizations.id, buddies.org.organizationId));
        await t.notifications.publish(t.database.db, CHANNELS.adsChanged);
      });
    const [proven] = await t.database.db
      .select({ at: organizations.domainVerifiedAt })
      .from(organizations)
      .where(eq(organizations.id, buddies.org.organizationId));
    const counted = await follow(pathOf(buddies.trackedUrl));
    expect(bclickidOf(counted)).toBeTruthy();

    await prove(null);
    const before = await traces();
    try {
      for (const path of [pathOf(buddies.trackedUrl), buddies.shortPath]) {
        const response = await follow(path);
        expect(response.statusCode).toBe(302);
        expect(response.headers.location).toBe(buddies.ads.org.ctaUrl);
      }
      expect(await traces()).toEqual({ ...before, events: before.events + 2, notLive: before.notLive + 2 });
      const refused = await shorten(buddies.trackedUrl);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ message: NOT_SHAREABLE.unproven });
    } finally {
      // Proven again whatever happened above: the tests after this one need the company live.
      await prove(proven?.at ?? new Date());
    }
    expect(bclickidOf(await follow(buddies.shortPath))).toBeTruthy();
    expect((await traces()).events).toBe(before.events + 3);
  });

  it("still counts an archived ad's links, but gives it no new short link", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/api/marketing/collateral",
      headers: buddies.org.headers,
      payload: {
        name: "Archived soon",
        description: "Last season's offer.",
        ctaText: "See it",
        ctaUrl: `https://${buddies.org.domain}/season`,
        status: "active",
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const trackedUrl = (await listedByPartner()).find((item) => item.id === id)?.trackedUrl ?? "";
    const short = await shorten(trackedUrl);
    expect(short.statusCode, short.body).toBe(201);
    await setStatus(buddies.org.headers, id, "archived");

    const before = await traces();
    for (const path of [pathOf(trackedUrl), pathOf(short.json().shortUrl)]) {
      const response = await follow(path);
      expect(response.statusCode).toBe(302);
      expect(bclickidOf(response)).toMatch(/\S/);
    }
    expect(await traces()).toEqual({
      events: before.events + 2,
      notLive: before.notLive,
      sent: before.sent + 2,
      received: before.received + 2,
    });
    expect((await listedByPartner()).some((item) => item.id === id)).toBe(false);
    const refused = await shorten(trackedUrl);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: NOT_SHAREABLE.inactive });
  });

  it("stops counting an ad taken back to a draft at once, on the instance that cached its link", async () => {
    // Followed once: the ad's host and standing are now in this instance's memory.
    expect(bclickidOf(await follow(pathOf(buddies.trackedUrl)))).toBeTruthy();
    await setStatus(buddies.org.headers, buddies.ads.org.id, "draft");

    const before = await traces();
    for (const path of [pathOf(buddies.trackedUrl), buddies.shortPath]) {
      const response = await follow(path);
      expect(response.statusCode).toBe(302);
      expect(bclickidOf(response)).toBeNull();
    }
    expect(await traces()).toEqual({ ...before, events: before.events + 2, notLive: before.notLive + 2 });
  });
});
