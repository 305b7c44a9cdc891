import { DAY_MS } from "@shared/days";
import { like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notificationsSent } from "../../db/schema";
import { addMember, createApiKey, createOrganization, createTestApp, type TestApp } from "../../testing/app";
import { createBuddies } from "../../testing/buddies";
import { dueDigestWeek, queueWeeklyDigests } from "./weekly-digest";

/** The first Monday 08:05 UTC after today: the week before it holds today. */
function nextMonday(from = new Date()): Date {
  const midnight = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  const days = (8 - new Date(midnight).getUTCDay()) % 7 || 7;
  return new Date(midnight + days * DAY_MS + (8 * 60 + 5) * 60_000);
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("The weekly digest", () => {
  it("is due on Mondays from 08:00 UTC to the end of the day", () => {
    expect(dueDigestWeek(new Date("2026-11-30T07:59:59Z"))).toBeNull();
    expect(dueDigestWeek(new Date("2026-11-30T08:00:00Z"))).toBe("2026-11-30");
    expect(dueDigestWeek(new Date("2026-11-30T23:59:59Z"))).toBe("2026-11-30");
    expect(dueDigestWeek(new Date("2026-12-01T08:00:00Z"))).toBeNull();
    expect(dueDigestWeek(new Date("2026-11-29T09:00:00Z"))).toBeNull();
  });

  it("goes once per person per week, from two instances whose sweeps race, to those who want it", async () => {
    const { org, partner, clickId } = await createBuddies(t, ["digestorg", "digestpartner"]);
    const key = (await createApiKey(t, org)).key;
    const sale = await t.app.inject({
      method: "POST",
      url: "/api/marketing/conversion",
      headers: { "x-api-key": key },
      payload: { clickId, type: "purchase", value: 25 },
    });
    expect(sale.statusCode, sale.body).toBe(201);
    const teammate = await addMember(t, org.organizationId);
    const quiet = await addMember(t, org.organizationId);
    const off = await t.app.inject({
      method: "PATCH",
      url: "/api/notification-preferences",
      headers: quiet.headers,
      payload: { weeklyDigest: false },
    });
    expect(off.statusCode).toBe(200);
    const idle = await createOrganization(t, "digestidle");

    // Two more instances whose clock says Monday 08:05: each one's first outbox tick runs the
    // hourly sweep, the digest among its tasks.
    const monday = nextMonday();
    const instances = await Promise.all(
      [0, 1].map(() => createTestApp({ database: t.database, mail: t.mail, clock: () => monday })),
    );
    try {
      const subject = /^Your week on Buddy: /;
      for (const email of [org.email, teammate.email, partner.email]) {
        await t.mail.waitFor((m) => m.to === email.toLowerCase() && subject.test(m.subject), 15_000);
      }
      // Both sweep again (as a later hour would): nothing more.
      await Promise.all(
        instances.map((i) => queueWeeklyDigests(i.app.db, new Date(monday.getTime() + 3_600_000))),
      );
      for (const i of [t, ...instances]) await i.app.outbox.drain();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const digests = (email: string) =>
        t.mail.messages.filter((m) => m.to === email.toLowerCase() && subject.test(m.subject));
      for (const email of [org.email, teammate.email, partner.email]) expect(digests(email)).toHaveLength(1);
      expect(digests(quiet.email)).toHaveLength(0);
      // No partner traffic that week: no digest.
      expect(digests(idle.email)).toHaveLength(0);

      const [mine] = digests(org.email);
      expect(mine?.subject).toBe("Your week on Buddy: 0 clicks sent, 1 click received");
      expect(mine?.text).toContain(
        "digestpartner: Sent 0 clicks, 0 leads; Received 1 click, 1 lead, $25.00.",
      );
      expect(mine?.headers["list-unsubscribe"]).toMatch(/unsubscribe\?token=/);
      expect(mine?.text).toContain("because Weekly Digest mails are on");
      const [theirs] = digests(partner.email);
      expect(theirs?.text).toContain("digestorg: Sent 1 click, 1 lead, $25.00; Received 0 clicks, 0 leads.");

      const week = monday.toISOString().slice(0, 10);
      const keys = await t.database.db
        .select()
        .from(notificationsSent)
        .where(like(notificationsSent.key, `digest:%:${week}`));
      expect(keys.map((row) => row.key).sort()).toEqual(
        [org.userId, teammate.userId, partner.userId].map((id) => `digest:${id}:${week}`).sort(),
      );
    } finally {
      for (const i of instances) await i.close();
    }
  });
});
