import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notificationPreferences } from "../../db/schema";
import {
  addMember,
  createOrganization,
  createTestApp,
  relate,
  TEST_PUBLIC_URL,
  type TestApp,
} from "../../testing/app";
import { unsubscribeToken } from "./unsubscribe-token";

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
    const patch = await t.app.inject({
      method: "PATCH",
      url: "/api/notification-preferences",
      payload: { weeklyDigest: false },
    });
    expect(patch.statusCode).toBe(401);
    expect(patch.json()).toHaveProperty("message");
  });

  it("change one at a time, for the person alone, the others kept", async () => {
    const org = await createOrganization(t, "patchprefs");
    const teammate = await addMember(t, org.organizationId);
    const patch = (payload: object, headers = org.headers) =>
      t.app.inject({ method: "PATCH", url: "/api/notification-preferences", headers, payload });
    const first = await patch({ weeklyDigest: false });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      emailNotifications: true,
      marketingEmails: false,
      newCompetitorAlerts: true,
      weeklyDigest: false,
    });
    const second = await patch({ marketingEmails: true, emailNotifications: false });
    expect(second.json()).toEqual({
      emailNotifications: false,
      marketingEmails: true,
      newCompetitorAlerts: true,
      weeklyDigest: false,
    });
    const read = await t.app.inject({ url: "/api/notification-preferences", headers: org.headers });
    expect(read.json()).toEqual(second.json());
    const theirs = await t.app.inject({ url: "/api/notification-preferences", headers: teammate.headers });
    expect(theirs.json()).toMatchObject({ weeklyDigest: true, emailNotifications: true });
  });

  it("refuse a body that changes nothing, an unknown key or a value that is not a boolean (400)", async () => {
    const org = await createOrganization(t, "badprefs");
    for (const payload of [{}, { weeklyDigest: "no" }, { weeklyDigest: null }, { smsAlerts: true }]) {
      const response = await t.app.inject({
        method: "PATCH",
        url: "/api/notification-preferences",
        headers: org.headers,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(typeof response.json().message).toBe("string");
    }
    const read = await t.app.inject({ url: "/api/notification-preferences", headers: org.headers });
    expect(read.json()).toMatchObject({ weeklyDigest: true, emailNotifications: true });
  });
});

describe("One-click unsubscribe (RFC 8058)", () => {
  const preferencesOf = (headers: Record<string, string>) =>
    t.app.inject({ url: "/api/notification-preferences", headers }).then((r) => r.json());

  it("turns that kind off with the POST to the mail's List-Unsubscribe, without signing in; a GET changes nothing", async () => {
    const adder = await createOrganization(t, "unsubadder");
    const reader = await createOrganization(t, "unsubreader");
    await relate(t, adder, reader.organizationId, "complement");
    const mail = await t.mail.waitFor(
      (m) => m.to === reader.email.toLowerCase() && m.subject === "unsubadder added unsubreader as a Buddy",
    );
    const header = mail.headers["list-unsubscribe"] ?? "";
    const url = header.slice(1, -1);
    expect(url.startsWith(`${TEST_PUBLIC_URL}/api/notifications/unsubscribe?token=`)).toBe(true);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    const path = url.slice(TEST_PUBLIC_URL.length);

    // Opening it (a scanner, or the person) only says what it would do.
    const look = await t.app.inject({ url: path });
    expect(look.statusCode).toBe(200);
    expect(look.json()).toEqual({
      message: `Unsubscribe ${reader.email} from Email Notifications?`,
      email: reader.email,
      preference: "emailNotifications",
      subscribed: true,
    });
    const page = await t.app.inject({ url: path, headers: { accept: "text/html,application/xhtml+xml" } });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain('<form method="post"');
    expect(page.body).toContain("Unsubscribe");
    expect((await preferencesOf(reader.headers)).emailNotifications).toBe(true);

    // The mail client's one-click POST: a form body, no session.
    const oneClick = () =>
      t.app.inject({
        method: "POST",
        url: path,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "List-Unsubscribe=One-Click",
      });
    const done = await oneClick();
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ preference: "emailNotifications", subscribed: false });
    expect(await preferencesOf(reader.headers)).toEqual({
      emailNotifications: false,
      marketingEmails: false,
      newCompetitorAlerts: true,
      weeklyDigest: true,
    });
    // Again: the same answer, nothing else changes.
    const again = await oneClick();
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ subscribed: false });
    expect((await preferencesOf(reader.headers)).weeklyDigest).toBe(true);
  });

  it("refuses a forged or altered token and changes nothing", async () => {
    const org = await createOrganization(t, "forgedunsub");
    const genuine = unsubscribeToken(t.config.appSecret as string, {
      userId: org.userId,
      preference: "weeklyDigest",
    });
    const [userId, , mac] = genuine.split(".");
    const other = await addMember(t, org.organizationId);
    const forged = [
      `${genuine.slice(0, -1)}${genuine.endsWith("A") ? "B" : "A"}`,
      // The signature of one kind, carried to another.
      `${userId}.emailNotifications.${mac}`,
      // …or to another person.
      `${other.userId}.weeklyDigest.${mac}`,
      unsubscribeToken("another-secret-another-secret-0123456789", {
        userId: org.userId,
        preference: "weeklyDigest",
      }),
      "nonsense",
    ];
    for (const token of forged) {
      for (const method of ["GET", "POST"] as const) {
        const response = await t.app.inject({
          method,
          url: `/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`,
        });
        expect(response.statusCode, `${method} ${token}`).toBe(400);
        expect(response.json()).toEqual({ message: "This unsubscribe link is not valid" });
      }
    }
    const missing = await t.app.inject({ method: "POST", url: "/api/notifications/unsubscribe" });
    expect(missing.statusCode).toBe(400);
    expect((await preferencesOf(org.headers)).weeklyDigest).toBe(true);
    expect((await preferencesOf(org.headers)).emailNotifications).toBe(true);
    expect((await preferencesOf(other.headers)).weeklyDigest).toBe(true);
  });
});
