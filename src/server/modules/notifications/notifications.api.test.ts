import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notificationPreferences } from "../../db/schema";
import { addMember, createOrganization, createTestApp, type TestApp } from "../../testing/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("Notification preferences", () => {
  it("are every kind but product news for a new person, admins and members alike", async () => {
    const admin = await createOrganization(t, "notifyco");
    const member = await addMember(t, admin.organizationId);
    const defaults = {
      emailNotifications: true,
      marketingEmails: false,
      newCompetitorAlerts: true,
      weeklyDigest: true,
    };
    for (const headers of [admin.headers, member.headers]) {
      const response = await t.app.inject({ url: "/api/notification-preferences", headers });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(defaults);
    }
  });

  it("answer what the person stored, and only theirs", async () => {
    const stored = await createOrganization(t, "storedprefs");
    const teammate = await addMember(t, stored.organizationId);
    await t.database.db
      .insert(notificationPreferences)
      .values({ userId: stored.userId, weeklyDigest: false, emailNotifications: false });
    const mine = await t.app.inject({ url: "/api/notification-preferences", headers: stored.headers });
    expect(mine.json()).toMatchObject({ weeklyDigest: false, emailNotifications: false });
    const theirs = await t.app.inject({ url: "/api/notification-preferences", headers: teammate.headers });
    expect(theirs.json()).toMatchObject({ weeklyDigest: true, emailNotifications: true });
    await t.database.db
      .delete(notificationPreferences)
      .where(eq(notificationPreferences.userId, stored.userId));
  });

  it("need a session", async () => {
    expect((await t.app.inject({ url: "/api/notification-preferences" })).statusCode).toBe(401);
  });
});
