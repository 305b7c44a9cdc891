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
  it("are all off for a new organization, for admins and members alike", async () => {
    const admin = await createOrganization(t, "notifyco");
    const member = await addMember(t, admin.organizationId);
    const off = {
      emailNotifications: false,
      marketingEmails: false,
      newCompetitorAlerts: false,
      weeklyDigest: false,
    };
    for (const headers of [admin.headers, member.headers]) {
      const response = await t.app.inject({ url: "/api/notification-preferences", headers });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(off);
    }
  });

  it("answer what is stored for the organization, and only its own", async () => {
    const stored = await createOrganization(t, "storedprefs");
    const other = await createOrganization(t, "otherprefs");
    await t.database.db
      .insert(notificationPreferences)
      .values({ organizationId: stored.organizationId, weeklyDigest: true });
    const mine = await t.app.inject({ url: "/api/notification-preferences", headers: stored.headers });
    expect(mine.json()).toMatchObject({ weeklyDigest: true, emailNotifications: false });
    const theirs = await t.app.inject({ url: "/api/notification-preferences", headers: other.headers });
    expect(theirs.json().weeklyDigest).toBe(false);
    await t.database.db
      .delete(notificationPreferences)
      .where(eq(notificationPreferences.organizationId, stored.organizationId));
  });

  it("need a session", async () => {
    expect((await t.app.inject({ url: "/api/notification-preferences" })).statusCode).toBe(401);
  });
});
