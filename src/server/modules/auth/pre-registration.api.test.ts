import { AUTH_MESSAGES } from "@shared/auth";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberships, oneTimeTokens, users } from "../../db/schema";
import { authHeader, createTestApp, onboardingForm, TEST_PUBLIC_URL, type TestApp } from "../../testing/app";
import { tokenFrom } from "../../testing/mail-receiver";

/**
 * Issue 34's first finding, replayed: someone signs up with an address they do not hold, and the
 * address's owner verifies it. CONTRACT §3: a password is usable only through the verification of
 * the sign-up that chose it, by whoever chose it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ATTACKER_PASSWORD = "Attacker-pass1!";
const VICTIM_PASSWORD = "Victim-pass1!";

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url, payload, headers });
const login = (email: string, password: string) => post("/api/auth", { email, password, mode: "login" });

async function signUp(email: string, password: string) {
  const before = t.mail.messages.length;
  const response = await post("/api/auth", { email, password, mode: "signup" });
  expect(response.statusCode).toBe(201);
  const mail = await t.mail.waitFor(
    (m) => m.to === email && t.mail.messages.indexOf(m) >= before && m.text.includes("/verify-email?token="),
  );
  return {
    signupSecret: (response.json() as { signupSecret: string }).signupSecret,
    verifyToken: tokenFrom(mail, `${TEST_PUBLIC_URL}/verify-email`),
  };
}

const verify = (token: string, signupSecret?: string) =>
  post("/api/verify-email", signupSecret === undefined ? { token } : { token, signupSecret });

async function account(email: string) {
  const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
  if (!row) throw new Error(`no account for ${email}`);
  return row;
}

describe("pre-registration of someone else's address", () => {
  it("ends with the attacker refused for good and the victim holding the account and the company", async () => {
    const email = `ceo-${crypto.randomUUID().slice(0, 6)}@victim.example`;
    const attacker = await signUp(email, ATTACKER_PASSWORD);
    // The attacker holds its sign-up's secret, never the mail: it is told to verify first.
    expect((await login(email, ATTACKER_PASSWORD)).statusCode).toBe(403);

    // The victim opens the unsolicited mail in their own browser, which holds no secret.
    const verified = await verify(attacker.verifyToken);
    expect(verified.statusCode).toBe(200);
    const { token: victimSession, setPasswordToken } = verified.json() as {
      token: string;
      setPasswordToken: string | null;
    };
    expect(setPasswordToken).toEqual(expect.any(String));
    expect((await account(email)).passwordHash).toBeNull();

    // Even with its own secret, the attacker's password was voided by that verification.
    expect((await login(email, ATTACKER_PASSWORD)).statusCode).toBe(401);
    expect((await verify(attacker.verifyToken, attacker.signupSecret)).statusCode).toBe(400);

    // The victim chooses a password with the token the verification answered, and signs in with it.
    const reset = await post("/api/reset-password", {
      token: setPasswordToken ?? "",
      password: VICTIM_PASSWORD,
    });
    expect(reset.statusCode).toBe(200);
    expect((await login(email, VICTIM_PASSWORD)).statusCode).toBe(200);
    // The reset ended the verifier's session, as any reset does.
    expect((await t.app.inject({ url: "/api/me", headers: authHeader(victimSession) })).statusCode).toBe(401);

    // Signing up again gets the attacker nothing: the address is verified, its owner is told, and
    // the attacker's password is only ever told to verify first.
    const again = await post("/api/auth", { email, password: ATTACKER_PASSWORD, mode: "signup" });
    expect(again.statusCode).toBe(201);
    expect((await login(email, ATTACKER_PASSWORD)).statusCode).toBe(403);

    // The victim onboards the company as its admin, and nobody else is in it.
    const session = (await login(email, VICTIM_PASSWORD)).json() as { token: string };
    const onboarded = await post(
      "/api/onboarding",
      onboardingForm("Victim", "https://victim.example"),
      authHeader(session.token),
    );
    expect(onboarded.statusCode, onboarded.body).toBe(201);
    const { organizationId } = (onboarded.json() as { user: { organizationId: string } }).user;
    const members = await t.database.db
      .select({ userId: memberships.userId, role: memberships.role, status: memberships.status })
      .from(memberships)
      .where(eq(memberships.organizationId, organizationId));
    expect(members).toEqual([{ userId: (await account(email)).id, role: "admin", status: "active" }]);
    expect((await login(email, ATTACKER_PASSWORD)).json().token).toBeUndefined();
  });

  it.each([
    ["the attacker's mail", "attacker"],
    ["their own mail", "victim"],
  ] as const)(
    "keeps the victim's own password when the victim signs up after the attacker and opens %s",
    async (_, opened) => {
      const company = `founder-${crypto.randomUUID().slice(0, 6)}.example`;
      const email = `founder@${company}`;
      const attacker = await signUp(email, ATTACKER_PASSWORD);
      const victim = await signUp(email, VICTIM_PASSWORD);
      expect(victim.verifyToken).not.toBe(attacker.verifyToken);
      // No sign-up's password works before a verification; the newest one's is told to verify.
      expect((await login(email, VICTIM_PASSWORD)).statusCode).toBe(403);
      expect((await login(email, ATTACKER_PASSWORD)).statusCode).toBe(401);

      // The victim opens one of the two mails, in the browser that holds the victim's secret.
      const link = opened === "attacker" ? attacker.verifyToken : victim.verifyToken;
      const other = opened === "attacker" ? victim.verifyToken : attacker.verifyToken;
      const verified = await verify(link, victim.signupSecret);
      expect(verified.statusCode).toBe(200);
      expect(verified.json().setPasswordToken).toBeNull();
      expect(verified.json().user.email).toBe(email);

      expect((await login(email, VICTIM_PASSWORD)).statusCode).toBe(200);
      expect((await login(email, ATTACKER_PASSWORD)).statusCode).toBe(401);
      // Every other link of the address died with the one used, whoever's secret comes with it.
      expect((await verify(other, victim.signupSecret)).statusCode).toBe(400);
      expect((await verify(other, attacker.signupSecret)).statusCode).toBe(400);
      const pending = await t.database.db
        .select({ id: oneTimeTokens.id })
        .from(oneTimeTokens)
        .where(
          and(
            eq(oneTimeTokens.userId, (await account(email)).id),
            eq(oneTimeTokens.purpose, "verify_email"),
            isNull(oneTimeTokens.usedAt),
          ),
        );
      expect(pending).toEqual([]);

      // The victim onboards the company alone; the attacker's password still opens nothing.
      const session = (await login(email, VICTIM_PASSWORD)).json() as { token: string };
      const onboarded = await post(
        "/api/onboarding",
        onboardingForm("Founder", `https://${company}`),
        authHeader(session.token),
      );
      expect(onboarded.statusCode, onboarded.body).toBe(201);
      const { organizationId } = (onboarded.json() as { user: { organizationId: string } }).user;
      const members = await t.database.db
        .select({ userId: memberships.userId, role: memberships.role, status: memberships.status })
        .from(memberships)
        .where(eq(memberships.organizationId, organizationId));
      expect(members).toEqual([{ userId: (await account(email)).id, role: "admin", status: "active" }]);
      expect((await login(email, ATTACKER_PASSWORD)).statusCode).toBe(401);
    },
  );

  it("never lets the attacker's secret choose the password, even with the victim's own link", async () => {
    // The worst case for the secret: the attacker somehow holds the mailed token too. Its secret
    // then keeps its own password, which is what holding the mailbox allows anyway; a secret of
    // a sign-up that was not made for this address keeps nothing.
    const email = `cfo-${crypto.randomUUID().slice(0, 6)}@victim.example`;
    const other = await signUp(`other-${crypto.randomUUID().slice(0, 6)}@victim.example`, ATTACKER_PASSWORD);
    const victim = await signUp(email, VICTIM_PASSWORD);
    const verified = await verify(victim.verifyToken, other.signupSecret);
    expect(verified.statusCode).toBe(200);
    expect(verified.json().setPasswordToken).toEqual(expect.any(String));
    expect((await login(email, VICTIM_PASSWORD)).statusCode).toBe(401);
    expect((await login(email, ATTACKER_PASSWORD)).statusCode).toBe(401);
  });

  it("changes nothing when a mail scanner fetches the link", async () => {
    const email = `cto-${crypto.randomUUID().slice(0, 6)}@victim.example`;
    const victim = await signUp(email, VICTIM_PASSWORD);
    const link = new URL(`${TEST_PUBLIC_URL}/verify-email?token=${encodeURIComponent(victim.verifyToken)}`);
    // What a scanner does with a link: GET (and HEAD) it, on the page and on the API alike.
    for (const method of ["GET", "HEAD"] as const) {
      await t.app.inject({ method, url: `${link.pathname}${link.search}` });
      await t.app.inject({ method, url: `/api${link.pathname}${link.search}` });
    }
    const row = await account(email);
    expect(row.emailVerifiedAt).toBeNull();
    expect((await login(email, VICTIM_PASSWORD)).statusCode).toBe(403);

    // The owner's own verification afterwards works as if nothing had happened.
    expect((await verify(victim.verifyToken, victim.signupSecret)).statusCode).toBe(200);
    expect((await login(email, VICTIM_PASSWORD)).statusCode).toBe(200);
  });

  it("tells a stranger nothing by signing up and then in: a verified address answers as a new one", async () => {
    // The probe: sign up with a password of one's own, then sign in with it. Before, a verified
    // address answered 401 there and a free one 403.
    const owner = `owner-${crypto.randomUUID().slice(0, 6)}@victim.example`;
    const owned = await signUp(owner, VICTIM_PASSWORD);
    expect((await verify(owned.verifyToken, owned.signupSecret)).statusCode).toBe(200);
    const free = `free-${crypto.randomUUID().slice(0, 6)}@victim.example`;
    const answers = [];
    for (const email of [owner, free]) {
      const signup = await post("/api/auth", { email, password: "Probe-pass1!", mode: "signup" });
      const probe = await login(email, "Probe-pass1!");
      answers.push([signup.statusCode, Object.keys(signup.json()), probe.statusCode, probe.json()]);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]?.[2]).toBe(403);
    // The owner's password is untouched, and the probe's never becomes usable.
    expect((await login(owner, VICTIM_PASSWORD)).statusCode).toBe(200);
    const ownerMail = await t.mail.waitFor(
      (m) => m.to === owner && m.subject === "You already have a Buddy account",
    );
    expect(ownerMail.text).not.toContain("/verify-email?token=");
  });

  it("tells only a pending sign-up's password to verify first; any other is refused like an unknown one", async () => {
    const email = `coo-${crypto.randomUUID().slice(0, 6)}@victim.example`;
    await signUp(email, VICTIM_PASSWORD);
    const right = await login(email, VICTIM_PASSWORD);
    expect(right.statusCode).toBe(403);
    expect(right.json().message).toBe(AUTH_MESSAGES.unverified);
    const wrong = await login(email, "Not-the-password1!");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(AUTH_MESSAGES.invalidCredentials);
  });
});
