import { AUTH_MESSAGES } from "@shared/auth";
import { TEAM_MESSAGES } from "@shared/team";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberships, teamInvitations, users } from "../../db/schema";
import {
  addMember,
  authHeader,
  createOrganization,
  createTestApp,
  STRONG_PASSWORD,
  signUpVerified,
  TEST_PUBLIC_URL,
  type TestApp,
} from "../../testing/app";
import { linkFrom, tokenFrom } from "../../testing/mail-receiver";
import { createSession } from "../auth/sessions";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Org = Awaited<ReturnType<typeof createOrganization>>;
const uniqueEmail = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;

async function team(org: { headers: Record<string, string> }) {
  const response = await t.app.inject({ url: "/api/team-members", headers: org.headers });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    id: string;
    role: string;
    status: string;
    invited: boolean;
    user: { email: string };
  }[];
}

const invite = (headers: Record<string, string>, payload: Record<string, unknown>) =>
  t.app.inject({ method: "POST", url: "/api/team-members/invite", headers, payload });

/** The invitation mail's link, as a colleague would open it. */
async function invitationLinkFor(email: string) {
  const mail = await t.mail.waitFor((m) => m.to === email && m.subject.includes("invited you to join"));
  return new URL(linkFrom(mail, `${TEST_PUBLIC_URL}/auth?`));
}

const signUpAs = (email: string, password: string, inviteToken?: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth",
    payload: { email, password, mode: "signup", inviteToken },
  });

const login = (email: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth",
    payload: { email, password: STRONG_PASSWORD, mode: "login" },
  });

describe("Invitations", () => {
  let admin: Org;
  beforeAll(async () => {
    admin = await createOrganization(t, "inviteco");
  });

  it("mails a single-use link; registering through it joins the organization with the invited role, verified", async () => {
    const email = uniqueEmail("colleague");
    const sent = await invite(admin.headers, { email: email.toUpperCase(), role: "admin" });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({
      message: TEAM_MESSAGES.invitationSent,
      member: { role: "admin", status: "pending", invited: true, user: { email } },
    });
    expect((await team(admin)).find((m) => m.user.email === email)).toMatchObject({
      status: "pending",
      invited: true,
    });

    const link = await invitationLinkFor(email);
    expect(link.searchParams.get("tab")).toBe("register");
    expect(link.searchParams.get("email")).toBe(email);
    const inviteToken = link.searchParams.get("invite") ?? "";
    const [stored] = await t.database.db
      .select()
      .from(teamInvitations)
      .where(eq(teamInvitations.email, email));
    expect(JSON.stringify(stored)).not.toContain(inviteToken);

    const registered = await t.app.inject({
      method: "POST",
      url: "/api/auth",
      payload: { email, password: STRONG_PASSWORD, mode: "signup", inviteToken },
    });
    expect(registered.statusCode).toBe(201);
    expect(registered.json().message).toBe(AUTH_MESSAGES.registeredInvited);

    const session = await login(email);
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().user).toMatchObject({
      organizationId: admin.organizationId,
      role: "admin",
      hasCompletedOnboarding: true,
      canApproveMembers: true,
    });
    const row = (await team(admin)).find((m) => m.user.email === email);
    expect(row).toMatchObject({ status: "active", role: "admin", invited: false });

    // Single use: the same link registers nobody else and is not listed any more.
    const again = await t.app.inject({
      method: "POST",
      url: "/api/auth",
      payload: { email: uniqueEmail("other"), password: STRONG_PASSWORD, mode: "signup", inviteToken },
    });
    expect(again.json().message).toBe(AUTH_MESSAGES.registered);
    expect((await team(admin)).filter((m) => m.user.email === email)).toHaveLength(1);
  });

  it("defaults the role to member, and a forwarded link does not let another address in", async () => {
    const email = uniqueEmail("forwarded");
    const sent = await invite(admin.headers, { email });
    expect(sent.json().member.role).toBe("member");
    const inviteToken = (await invitationLinkFor(email)).searchParams.get("invite") ?? "";

    const stranger = uniqueEmail("stranger");
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth",
      payload: { email: stranger, password: STRONG_PASSWORD, mode: "signup", inviteToken },
    });
    expect(response.json().message).toBe(AUTH_MESSAGES.registered);
    // The stranger must verify their own address and belongs to no organization.
    expect((await login(stranger)).statusCode).toBe(403);
    expect((await team(admin)).find((m) => m.user.email === email)).toMatchObject({ invited: true });
  });

  it("lets someone invited who already has an account join by signing in through the link, and only so", async () => {
    const email = uniqueEmail("hasaccount");
    await signUpVerified(t, email);
    await invite(admin.headers, { email, role: "member" });
    const inviteToken = (await invitationLinkFor(email)).searchParams.get("invite") ?? "";

    // Signing in is not consent: without the link nothing changes.
    const plain = await login(email);
    expect(plain.json().user).toMatchObject({ organizationId: null, hasCompletedOnboarding: false });

    const throughLink = await t.app.inject({
      method: "POST",
      url: "/api/auth",
      payload: { email, password: STRONG_PASSWORD, mode: "login", inviteToken },
    });
    expect(throughLink.statusCode).toBe(200);
    expect(throughLink.json().user).toMatchObject({ organizationId: admin.organizationId, role: "member" });
  });

  it("lets someone whose earlier sign-up was never verified join by signing up through the link, with the new password", async () => {
    const email = uniqueEmail("unverified");
    // An earlier sign-up of the address, never verified: perhaps someone else pre-registering it.
    const earlier = await signUpAs(email, "Earlier-pass1!");
    expect(earlier.json().message).toBe(AUTH_MESSAGES.registered);
    const verification = await t.mail.waitFor(
      (m) => m.to === email && m.text.includes("/verify-email?token="),
    );
    const earlierVerifyToken = tokenFrom(verification, `${TEST_PUBLIC_URL}/verify-email`);
    const [account] = await t.database.db.select().from(users).where(eq(users.email, email));
    if (!account) throw new Error("no account");
    // The API never gives an unverified account a session; one is made here to show none survives.
    const earlierSession = await createSession(t.database.db, account.id);

    await invite(admin.headers, { email, role: "admin" });
    const inviteToken = (await invitationLinkFor(email)).searchParams.get("invite") ?? "";

    // Without the invitation's token it is one more pending sign-up: its password is not usable
    // before its own verification, so signing in is told to verify first.
    const forwarded = await signUpAs(email, STRONG_PASSWORD, "not-the-invitation");
    expect(forwarded.json().message).toBe(AUTH_MESSAGES.registered);
    expect((await login(email)).statusCode).toBe(403);

    // Through the link: answered as for a new address, verified, in the team with the invited role.
    const registered = await signUpAs(email, STRONG_PASSWORD, inviteToken);
    expect(registered.statusCode).toBe(201);
    expect(registered.json().message).toBe(AUTH_MESSAGES.registeredInvited);
    const session = await login(email);
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().user).toMatchObject({
      organizationId: admin.organizationId,
      role: "admin",
      hasCompletedOnboarding: true,
    });
    expect((await team(admin)).find((m) => m.user.email === email)).toMatchObject({
      status: "active",
      role: "admin",
      invited: false,
    });

    // The password typed through the link replaced the earlier one, and what the earlier
    // sign-up held is void.
    const withEarlierPassword = await t.app.inject({
      method: "POST",
      url: "/api/auth",
      payload: { email, password: "Earlier-pass1!", mode: "login" },
    });
    expect(withEarlierPassword.statusCode).toBe(401);
    expect((await t.app.inject({ url: "/api/me", headers: authHeader(earlierSession) })).statusCode).toBe(
      401,
    );
    const verify = await t.app.inject({
      method: "POST",
      url: "/api/verify-email",
      payload: { token: earlierVerifyToken },
    });
    expect(verify.statusCode).toBe(400);
  });

  it("leaves a member of another organization where they are, the invitation still open", async () => {
    const elsewhere = await createOrganization(t, "elsewhereco");
    await invite(admin.headers, { email: elsewhere.email });
    const inviteToken = (await invitationLinkFor(elsewhere.email)).searchParams.get("invite") ?? "";
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth",
      payload: { email: elsewhere.email, password: STRONG_PASSWORD, mode: "login", inviteToken },
    });
    expect(response.json().user.organizationId).toBe(elsewhere.organizationId);
    expect((await team(admin)).find((m) => m.user.email === elsewhere.email)).toMatchObject({
      invited: true,
    });
  });

  it("does not let an expired invitation in", async () => {
    const email = uniqueEmail("late");
    await invite(admin.headers, { email });
    const inviteToken = (await invitationLinkFor(email)).searchParams.get("invite") ?? "";
    await t.database.db
      .update(teamInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(teamInvitations.email, email));
    expect((await team(admin)).some((m) => m.user.email === email)).toBe(false);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth",
      payload: { email, password: STRONG_PASSWORD, mode: "signup", inviteToken },
    });
    expect(response.json().message).toBe(AUTH_MESSAGES.registered);

    // Inviting the address again renews the invitation.
    const renewed = await invite(admin.headers, { email });
    expect(renewed.statusCode).toBe(201);
  });

  it("refuses an invalid or missing e-mail, an unknown role and an address already in the team", async () => {
    for (const payload of [
      {},
      { email: "" },
      { email: "not-an-email" },
      { email: uniqueEmail("x"), role: "owner" },
    ]) {
      const response = await invite(admin.headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toEqual(expect.any(String));
    }
    const self = await invite(admin.headers, { email: admin.email });
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe(TEAM_MESSAGES.alreadyInTeam);

    const email = uniqueEmail("twice");
    expect((await invite(admin.headers, { email })).statusCode).toBe(201);
    const twice = await invite(admin.headers, { email });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(TEAM_MESSAGES.alreadyInTeam);
  });

  it("lets members invite members but not admins", async () => {
    const member = await addMember(t, admin.organizationId);
    const asAdmin = await invite(member.headers, { email: uniqueEmail("boss"), role: "admin" });
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json().message).toBe(TEAM_MESSAGES.onlyAdminsInviteAdmins);
    const asMember = await invite(member.headers, { email: uniqueEmail("peer"), role: "member" });
    expect(asMember.statusCode).toBe(201);
    // Members see the team too.
    expect((await team(member)).length).toBeGreaterThan(1);
  });
});

describe("Approval, roles and removal", () => {
  let admin: Org;
  beforeAll(async () => {
    admin = await createOrganization(t, "approveco", { website: "https://approveco.example" });
  });

  it("approves someone who onboarded with the organization's domain", async () => {
    const applicant = await signUpVerified(t, uniqueEmail("applicant"));
    const onboarding = await t.app.inject({
      method: "POST",
      url: "/api/onboarding",
      headers: authHeader(applicant.token),
      payload: {
        companyName: "Approveco",
        website: "https://approveco.example",
        description: "Approveco makes software for testing purposes.",
        transactionalEmailProvider: "postmark",
        marketingEmailProvider: "mailchimp",
        selectedCompetitors: [],
        selectedComplements: [],
      },
    });
    expect(onboarding.statusCode).toBe(202);
    const pending = (await team(admin)).find((m) => m.user.email === applicant.user.email);
    expect(pending).toMatchObject({ status: "pending", invited: false, role: "member" });
    if (!pending) throw new Error("no pending member");

    const member = await addMember(t, admin.organizationId);
    const byMember = await t.app.inject({
      method: "POST",
      url: `/api/team-members/${pending.id}/approve`,
      headers: member.headers,
    });
    expect(byMember.statusCode).toBe(403);

    const approved = await t.app.inject({
      method: "POST",
      url: `/api/team-members/${pending.id}/approve`,
      headers: admin.headers,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ message: TEAM_MESSAGES.approved, member: { status: "active" } });
    const me = await t.app.inject({ url: "/api/me", headers: authHeader(applicant.token) });
    expect(me.json().user).toMatchObject({
      organizationId: admin.organizationId,
      hasCompletedOnboarding: true,
    });
    await t.mail.waitFor((m) => m.to === applicant.user.email && m.subject.includes("You can now use Buddy"));

    const twice = await t.app.inject({
      method: "POST",
      url: `/api/team-members/${pending.id}/approve`,
      headers: admin.headers,
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(TEAM_MESSAGES.notAwaitingApproval);
  });

  it("removes a member, whose sessions lose access at once", async () => {
    const member = await addMember(t, admin.organizationId);
    const row = (await team(admin)).find((m) => m.user.email === member.email);
    if (!row) throw new Error("member not listed");
    expect((await t.app.inject({ url: "/api/organization", headers: member.headers })).statusCode).toBe(200);

    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/team-members/${row.id}`,
      headers: admin.headers,
    });
    expect(removed.statusCode).toBe(204);
    const after = await t.app.inject({ url: "/api/organization", headers: member.headers });
    expect(after.statusCode).toBe(401);
    expect((await team(admin)).some((m) => m.user.email === member.email)).toBe(false);
  });

  it("withdraws an invitation", async () => {
    const email = uniqueEmail("withdrawn");
    const { member } = (await invite(admin.headers, { email })).json();
    const inviteToken = (await invitationLinkFor(email)).searchParams.get("invite") ?? "";
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/team-members/${member.id}`,
      headers: admin.headers,
    });
    expect(removed.statusCode).toBe(204);
    const registered = await t.app.inject({
      method: "POST",
      url: "/api/auth",
      payload: { email, password: STRONG_PASSWORD, mode: "signup", inviteToken },
    });
    expect(registered.json().message).toBe(AUTH_MESSAGES.registered);
  });

  it("never leaves an organization without an admin", async () => {
    const solo = await createOrganization(t, "soloco");
    const [own] = await team(solo);
    if (!own) throw new Error("no admin listed");
    const remove = await t.app.inject({
      method: "DELETE",
      url: `/api/team-members/${own.id}`,
      headers: solo.headers,
    });
    expect(remove.statusCode).toBe(409);
    expect(remove.json().message).toBe(TEAM_MESSAGES.lastAdmin);
    const demote = await t.app.inject({
      method: "PATCH",
      url: `/api/team-members/${own.id}`,
      headers: solo.headers,
      payload: { role: "member" },
    });
    expect(demote.statusCode).toBe(409);
    expect((await team(solo))[0]).toMatchObject({ role: "admin", status: "active" });

    // With a second admin, the first may step down, and then not the second.
    const second = await addMember(t, solo.organizationId, "admin");
    const stepDown = await t.app.inject({
      method: "PATCH",
      url: `/api/team-members/${own.id}`,
      headers: solo.headers,
      payload: { role: "member" },
    });
    expect(stepDown.statusCode).toBe(200);
    expect(stepDown.json().member.role).toBe("member");
    const secondRow = (await team(second)).find((m) => m.user.email === second.email);
    const last = await t.app.inject({
      method: "DELETE",
      url: `/api/team-members/${secondRow?.id}`,
      headers: second.headers,
    });
    expect(last.statusCode).toBe(409);
  });

  it("keeps one admin when two admins remove each other at the same moment", async () => {
    const org = await createOrganization(t, "duelco");
    const other = await addMember(t, org.organizationId, "admin");
    const rows = await team(org);
    const first = rows.find((m) => m.user.email === org.email);
    const second = rows.find((m) => m.user.email === other.email);
    const results = await Promise.all([
      t.app.inject({ method: "DELETE", url: `/api/team-members/${second?.id}`, headers: org.headers }),
      t.app.inject({ method: "DELETE", url: `/api/team-members/${first?.id}`, headers: other.headers }),
    ]);
    const codes = results.map((r) => r.statusCode).sort();
    // The loser is either refused (last admin) or already signed out by the winner.
    expect(codes[0]).toBe(204);
    expect([401, 409]).toContain(codes[1]);
    const admins = await t.database.db
      .select()
      .from(memberships)
      .where(eq(memberships.organizationId, org.organizationId));
    expect(admins.filter((m) => m.role === "admin" && m.status === "active")).toHaveLength(1);
  });

  it("answers 404 for another organization's member and invitation ids and unknown ids", async () => {
    const other = await createOrganization(t, "otherteamco");
    const invitedElsewhere = uniqueEmail("invitedelsewhere");
    const sent = await invite(other.headers, { email: invitedElsewhere });
    expect(sent.statusCode).toBe(201);
    const foreignInvitation: string = sent.json().member.id;
    const [foreign] = await team(other);
    for (const id of [foreign?.id, foreignInvitation, "unknown-id"]) {
      for (const [method, url, payload] of [
        ["POST", `/api/team-members/${id}/approve`, undefined],
        ["PATCH", `/api/team-members/${id}`, { role: "admin" }],
        ["DELETE", `/api/team-members/${id}`, undefined],
      ] as const) {
        const response = await t.app.inject({ method, url, headers: admin.headers, payload });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    const otherTeam = await team(other);
    expect(otherTeam[0]).toMatchObject({ role: "admin", status: "active" });
    expect(otherTeam.find((m) => m.id === foreignInvitation)).toMatchObject({
      role: "member",
      status: "pending",
      invited: true,
      user: { email: invitedElsewhere },
    });
  });
});
