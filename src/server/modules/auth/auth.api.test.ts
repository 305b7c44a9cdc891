import { AUTH_MESSAGES, PASSWORD_RULES } from "@shared/auth";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oneTimeTokens, sessions, users } from "../../db/schema";
import {
  authHeader,
  createTestApp,
  STRONG_PASSWORD,
  signUp,
  signUpVerified,
  TEST_PUBLIC_URL,
  type TestApp,
} from "../../testing/app";
import { tokenFrom } from "../../testing/mail-receiver";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url, payload: payload as object, headers });
const login = (email: string, password = STRONG_PASSWORD) =>
  post("/api/auth", { email, password, mode: "login" });

describe("sign-up", () => {
  it("creates an unverified account, answers 201 and mails a verification link to PUBLIC_URL", async () => {
    const response = await post("/api/auth", {
      email: "Ada@Example.com ",
      password: STRONG_PASSWORD,
      mode: "signup",
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      message: AUTH_MESSAGES.registered,
      signupSecret: expect.stringMatching(/^[\w-]{43}$/),
    });
    const mail = await t.mail.waitFor((m) => m.to === "ada@example.com");
    expect(mail.text).toContain(`${TEST_PUBLIC_URL}/verify-email?token=`);
    expect(mail.html).toContain(`${TEST_PUBLIC_URL}/verify-email?token=`);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, "ada@example.com"));
    expect(row?.emailVerifiedAt).toBeNull();
    // The password waits on the sign-up's verification token, never on the account itself.
    expect(row?.passwordHash).toBeNull();
    const [pending] = await t.database.db
      .select()
      .from(oneTimeTokens)
      .where(eq(oneTimeTokens.userId, row?.id ?? ""));
    expect(pending?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(pending?.signupSecretHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("answers a duplicate sign-up exactly like a new one and makes no second account", async () => {
    await signUpVerified(t, "dup@example.com");
    const again = await post("/api/auth", {
      email: "DUP@example.com",
      password: "Other-pass1!",
      mode: "signup",
    });
    expect(again.statusCode).toBe(201);
    // Answered alike, a secret included.
    expect(again.json()).toEqual({ message: AUTH_MESSAGES.registered, signupSecret: expect.any(String) });
    const [{ value }] = (await t.database.db
      .select({ value: count() })
      .from(users)
      .where(eq(users.email, "dup@example.com"))) as [{ value: number }];
    expect(value).toBe(1);
    // The owner is told; the old password still works, the stranger's never does: it is told to
    // verify first, as it would be for an address without an account.
    await t.mail.waitFor((m) => m.to === "dup@example.com" && m.subject.includes("already have"));
    expect((await login("dup@example.com")).statusCode).toBe(200);
    expect((await login("dup@example.com", "Other-pass1!")).statusCode).toBe(403);
  });

  it.each(PASSWORD_RULES.map((rule) => [rule.id, rule.message]))(
    "rejects a password failing the %s rule",
    async (id, message) => {
      const passwords: Record<string, string> = {
        length: "Ab1!xyz",
        uppercase: "abcdef1!",
        lowercase: "ABCDEF1!",
        number: "Abcdefg!",
        special: "Abcdefg1",
      };
      const response = await post("/api/auth", {
        email: `rule-${id}@example.com`,
        password: passwords[id],
        mode: "signup",
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message });
      const rows = await t.database.db
        .select()
        .from(users)
        .where(eq(users.email, `rule-${id}@example.com`));
      expect(rows).toHaveLength(0);
    },
  );

  it("rejects an invalid e-mail address with the SPEC message", async () => {
    const response = await post("/api/auth", {
      email: "not-an-email",
      password: STRONG_PASSWORD,
      mode: "signup",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: "Invalid email address" });
  });
});

describe("login", () => {
  it("refuses an unverified account with 403 and a message to verify first", async () => {
    await signUp(t, "unverified@example.com");
    const response = await login("unverified@example.com");
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(AUTH_MESSAGES.unverified);
  });

  it("answers 401 with one message for a wrong password and for an unknown address", async () => {
    await signUpVerified(t, "wrong@example.com");
    const wrong = await login("wrong@example.com", "Wrong-pass1!");
    const unknown = await login("nobody@example.com");
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it("returns a token, the user and 'Login successful'", async () => {
    await signUpVerified(t, "good@example.com");
    const response = await login("GOOD@example.com");
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.message).toBe("Login successful");
    expect(body.user).toEqual({
      id: expect.any(String),
      email: "good@example.com",
      role: null,
      organizationId: null,
      hasCompletedOnboarding: false,
      canApproveMembers: false,
    });
    // Only a hash of the token is stored.
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, body.user.id));
    expect(rows.some((s) => s.tokenHash === body.token)).toBe(false);
    expect(body.token.length).toBeGreaterThanOrEqual(40);
  });

  it("requires a non-empty password", async () => {
    const response = await post("/api/auth", { email: "good@example.com", password: "", mode: "login" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: "Password is required" });
  });
});

describe("verify-email", () => {
  it("is single-use: the second use gets 400 'Invalid or expired verification token'", async () => {
    await signUp(t, "once@example.com");
    const mail = await t.mail.waitFor((m) => m.to === "once@example.com");
    const token = tokenFrom(mail, `${TEST_PUBLIC_URL}/verify-email`);
    const first = await post("/api/verify-email", { token });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      message: "Email verified successfully",
      user: { email: "once@example.com" },
    });
    const me = await t.app.inject({ url: "/api/me", headers: authHeader(first.json().token) });
    expect(me.statusCode).toBe(200);
    const second = await post("/api/verify-email", { token });
    expect(second.statusCode).toBe(400);
    expect(second.json()).toEqual({ message: "Invalid or expired verification token" });
  });

  it("refuses an expired token and an unknown one", async () => {
    await signUp(t, "late@example.com");
    const mail = await t.mail.waitFor((m) => m.to === "late@example.com");
    const token = tokenFrom(mail, `${TEST_PUBLIC_URL}/verify-email`);
    await t.database.db.update(oneTimeTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await post("/api/verify-email", { token })).statusCode).toBe(400);
    expect((await post("/api/verify-email", { token: "made-up" })).json()).toEqual({
      message: "Invalid or expired verification token",
    });
  });
});

describe("me and logout", () => {
  it("answers 401 with clearToken for an unknown token, and for no token", async () => {
    const bad = await t.app.inject({ url: "/api/me", headers: authHeader("nope") });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ clearToken: true, message: expect.any(String) });
    const none = await t.app.inject({ url: "/api/me" });
    expect(none.statusCode).toBe(401);
  });

  it("logout revokes the token server-side", async () => {
    const { token } = await signUpVerified(t, "bye@example.com");
    expect((await t.app.inject({ url: "/api/me", headers: authHeader(token) })).statusCode).toBe(200);
    const out = await post("/api/logout", {}, authHeader(token));
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: "Logged out successfully" });
    const me = await t.app.inject({ url: "/api/me", headers: authHeader(token) });
    expect(me.statusCode).toBe(401);
    expect(me.json().clearToken).toBe(true);
  });
});

describe("forgot and reset password", () => {
  it("answers the same for unknown and known addresses and mails only the known one", async () => {
    await signUpVerified(t, "forgot@example.com");
    const unknown = await post("/api/forgot-password", { email: "ghost@example.com" });
    const known = await post("/api/forgot-password", { email: "forgot@example.com" });
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    const mail = await t.mail.waitFor(
      (m) => m.to === "forgot@example.com" && m.text.includes("/reset-password?token="),
    );
    expect(mail.text).toContain(`${TEST_PUBLIC_URL}/reset-password?token=`);
    expect(t.mail.messages.some((m) => m.to === "ghost@example.com")).toBe(false);
  });

  it("resets once, ends every session, and the new password works", async () => {
    const { token: session } = await signUpVerified(t, "reset@example.com");
    await post("/api/forgot-password", { email: "reset@example.com" });
    const mail = await t.mail.waitFor(
      (m) => m.to === "reset@example.com" && m.text.includes("/reset-password?token="),
    );
    const token = tokenFrom(mail, `${TEST_PUBLIC_URL}/reset-password`);

    const short = await post("/api/reset-password", { token, password: "short" });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ message: "Password must be at least 8 characters" });

    // Reset needs the length rule only (SPEC §5).
    const done = await post("/api/reset-password", { token, password: "plainpassword" });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ message: "Password reset successfully" });
    // The owner is told, with a link to check what was done with the account (issue 34).
    const changed = await t.mail.waitFor(
      (m) => m.to === "reset@example.com" && m.subject === "Your Buddy password was changed",
    );
    expect(changed.text).toContain(
      `Check what was done with your account: ${TEST_PUBLIC_URL}/dashboard/settings?tab=security-log`,
    );

    expect((await t.app.inject({ url: "/api/me", headers: authHeader(session) })).statusCode).toBe(401);
    expect((await login("reset@example.com")).statusCode).toBe(401);
    expect((await login("reset@example.com", "plainpassword")).statusCode).toBe(200);

    const again = await post("/api/reset-password", { token, password: "anotherpassword" });
    expect(again.statusCode).toBe(400);
  });

  it("refuses an expired reset token", async () => {
    await signUpVerified(t, "expired-reset@example.com");
    await post("/api/forgot-password", { email: "expired-reset@example.com" });
    const mail = await t.mail.waitFor(
      (m) => m.to === "expired-reset@example.com" && m.text.includes("/reset-password?token="),
    );
    const token = tokenFrom(mail, `${TEST_PUBLIC_URL}/reset-password`);
    await t.database.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.purpose, "reset_password"));
    const response = await post("/api/reset-password", { token, password: "plainpassword" });
    expect(response.statusCode).toBe(400);
    expect((await login("expired-reset@example.com")).statusCode).toBe(200);
  });
});

describe("malformed input never reaches a handler and never gives a 5xx", () => {
  const cases: Array<[string, { payload?: string; headers?: Record<string, string> }]> = [
    ["non-JSON", { payload: "{not json", headers: { "content-type": "application/json" } }],
    ["an empty JSON body", { payload: "", headers: { "content-type": "application/json" } }],
    ["wrong types", { payload: JSON.stringify({ email: 42, password: [], mode: "login" }) }],
    ["an unknown mode", { payload: JSON.stringify({ email: "a@b.co", password: "x", mode: "admin" }) }],
    ["a JSON array", { payload: "[]" }],
    ["null", { payload: "null" }],
    [
      "a huge e-mail",
      { payload: JSON.stringify({ email: `${"a".repeat(100_000)}@x.co`, password: "x", mode: "login" }) },
    ],
    [
      "a huge password",
      { payload: JSON.stringify({ email: "a@b.co", password: "A1!a".repeat(50_000), mode: "signup" }) },
    ],
  ];

  it.each(cases)("answers 400 to %s", async (_name, { payload, headers }) => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth",
      payload,
      headers: { "content-type": "application/json", ...headers },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: expect.any(String) });
    expect(response.body).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it("answers 415 to a body that is not JSON", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth",
      payload: "email=a",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ message: expect.any(String) });
  });

  it("answers 400 to wrong types on every account route", async () => {
    for (const url of ["/api/verify-email", "/api/forgot-password", "/api/reset-password"]) {
      const response = await post(url, { token: 1, email: false, password: {} });
      expect(response.statusCode, url).toBe(400);
    }
  });

  it("answers an unknown API route with a JSON 404", async () => {
    const response = await t.app.inject({ url: "/api/nothing-here" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: expect.any(String) });
  });

  it("sends security headers", async () => {
    const response = await t.app.inject({ url: "/api/me" });
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(response.headers["x-frame-options"]).toBeDefined();
  });
});
