import { DELETED_ORGANIZATION_NAME, DELETION_MESSAGES } from "@shared/deletion";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clickEvents,
  conversions,
  deletedOrganizations,
  jobs,
  memberships,
  organizations,
  securityLog,
  teamInvitations,
  webhookAttempts,
  webhookEndpoints,
} from "../../db/schema";
import { MAIL_PARTITION } from "../../mail/mail-jobs";
import {
  addMember,
  authHeader,
  createApiKey,
  createTestApp,
  STRONG_PASSWORD,
  signUpVerified,
  type TestApp,
} from "../../testing/app";
import { BROWSER_USER_AGENT, createBuddies } from "../../testing/buddies";
import { linkFrom, tokenFrom } from "../../testing/mail-receiver";
import { findInDatabase } from "../../testing/personal-data";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const CONFIRM_LINK = "http://buddy.test/confirm-deletion";

/** The link of the newest deletion mail to `to`, as its reader would open it. */
async function deletionTokenFor(to: string): Promise<string> {
  const mail = await t.mail.waitFor((m) => m.to === to && /^Confirm deleting/.test(m.subject));
  expect(linkFrom(mail, CONFIRM_LINK)).toMatch(/^http:\/\/buddy\.test\/confirm-deletion\?token=/);
  return tokenFrom(mail, CONFIRM_LINK);
}

async function stillThere(organizationId: string): Promise<boolean> {
  const rows = await t.database.db.select().from(organizations).where(eq(organizations.id, organizationId));
  return rows.length === 1;
}

async function confirm(token: string) {
  return t.app.inject({ method: "POST", url: "/api/deletion/confirm", payload: { token } });
}

describe("deleting an organization", () => {
  it("takes its name typed by an admin and a mailed link, and leaves no personal data behind", async () => {
    const buddies = await createBuddies(t, ["goneorg", "stayorg"]);
    const { org, partner } = buddies;
    const member = await addMember(t, org.organizationId);
    // What names people: a sign-in from a client address, a customer id, the members' addresses.
    const signIn = await t.app.inject({
      method: "POST",
      url: "/api/auth",
      payload: { email: member.email, password: STRONG_PASSWORD, mode: "login" },
      remoteAddress: "203.0.113.78",
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const key = await createApiKey(t, org);
    const sale = await t.app.inject({
      method: "POST",
      url: "/api/marketing/conversion",
      headers: { "x-api-key": key.key },
      payload: {
        clickId: buddies.clickId,
        type: "purchase",
        value: 49.99,
        currency: "USD",
        customerId: "cus_goneorg_7731",
      },
    });
    expect(sale.statusCode, sale.body).toBe(201);
    // The partner's webhook delivery of that sale: its body names the organization and its customer.
    const [endpoint] = await t.database.db
      .insert(webhookEndpoints)
      .values({
        organizationId: partner.organizationId,
        url: "https://hooks.stayorg.example/buddy",
        events: ["conversion.created"],
        secretSealed: "sealed",
        secretHint: "abcd",
      })
      .returning();
    await t.database.db.insert(webhookAttempts).values({
      endpointId: endpoint?.id ?? "",
      messageId: "msg_sale",
      eventType: "conversion.created",
      attempt: 1,
      status: "succeeded",
      durationMs: 5,
      requestBody: JSON.stringify({
        data: { partner: { id: org.organizationId }, customerId: "cus_goneorg_7731" },
      }),
    });
    // An invitation it sent (its mail names the inviter), and someone who asked to join.
    const invited = await t.app.inject({
      method: "POST",
      url: "/api/team-members/invite",
      headers: org.headers,
      payload: { email: "invitee-goneorg@elsewhere.example" },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const applicant = await signUpVerified(t, `applicant-${crypto.randomUUID().slice(0, 8)}@goneorg.example`);
    await t.database.db
      .insert(memberships)
      .values({ organizationId: org.organizationId, userId: applicant.user.id, status: "pending" });
    // The organization's own link to its partner's ad, as in a newsletter it already sent.
    const shared = await t.app.inject({
      url: `/api/marketing/collateral?organizationId=${partner.organizationId}`,
      headers: org.headers,
    });
    const sharedLink: string = shared.json()[0].trackedUrl;
    const ledger = async () =>
      (await t.app.inject({ url: "/api/metrics/partners?days=30", headers: partner.headers })).json()
        .partners;
    const before = await ledger();
    expect(before).toEqual([
      expect.objectContaining({ organizationId: org.organizationId, name: "goneorg" }),
    ]);

    // A member may not; a name that is not the organization's deletes nothing.
    const byMember = await t.app.inject({
      method: "POST",
      url: "/api/organization/deletion",
      headers: member.headers,
      payload: { name: "goneorg" },
    });
    expect(byMember.statusCode).toBe(403);
    const wrongName = await t.app.inject({
      method: "POST",
      url: "/api/organization/deletion",
      headers: org.headers,
      payload: { name: "stayorg" },
    });
    expect(wrongName.json()).toEqual({ message: DELETION_MESSAGES.nameMismatch });
    expect(wrongName.statusCode).toBe(400);

    const asked = await t.app.inject({
      method: "POST",
      url: "/api/organization/deletion",
      headers: org.headers,
      payload: { name: " goneorg " },
      remoteAddress: "203.0.113.77",
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toEqual({ message: DELETION_MESSAGES.mailSent });
    const token = await deletionTokenFor(org.email);
    // Nothing is deleted until the link's page confirms.
    expect(await stillThere(org.organizationId)).toBe(true);

    const confirmed = await confirm(token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toEqual({
      kind: "organization",
      message: DELETION_MESSAGES.organizationDeleted,
    });
    expect((await confirm(token)).json()).toEqual({ message: DELETION_MESSAGES.invalidLink });

    // Nothing of it works any more: sessions, API key.
    expect((await t.app.inject({ url: "/api/me", headers: org.headers })).statusCode).toBe(401);
    expect((await t.app.inject({ url: "/api/me", headers: member.headers })).statusCode).toBe(401);
    expect((await t.app.inject({ url: "/api/ads", headers: { "x-api-key": key.key } })).statusCode).toBe(401);

    // Its partner keeps its roll-ups, under a name that says what happened.
    const after = await ledger();
    expect(after).toEqual([{ ...before[0], name: DELETED_ORGANIZATION_NAME, adWeight: expect.any(Number) }]);

    // Its links take readers to the page plainly, and record nothing.
    const plain = await t.app.inject({
      url: buddies.shortPath,
      headers: { "user-agent": BROWSER_USER_AGENT },
    });
    expect(plain.statusCode).toBe(302);
    expect(plain.headers.location).toBe(`https://${org.domain}/start`);
    const signed = await t.app.inject({
      url: buddies.trackedUrl.slice("http://buddy.test".length),
      headers: { "user-agent": BROWSER_USER_AGENT },
    });
    expect(signed.statusCode).toBe(302);
    expect(signed.headers.location).not.toContain("bclickid");
    const sharerLink = await t.app.inject({
      url: sharedLink.slice("http://buddy.test".length),
      headers: { "user-agent": BROWSER_USER_AGENT },
    });
    expect(sharerLink.statusCode).toBe(302);
    expect(sharerLink.headers.location).toBe(`https://${partner.domain}/start`);
    // Its raw events follow the answer, in the background; the clicks just made were not stored.
    for (const side of [clickEvents.targetOrgId, clickEvents.sourceOrgId]) {
      await expect
        .poll(() => t.database.db.select().from(clickEvents).where(eq(side, org.organizationId)))
        .toEqual([]);
    }
    await expect
      .poll(() =>
        t.database.db.select().from(conversions).where(eq(conversions.targetOrgId, org.organizationId)),
      )
      .toEqual([]);

    // And nothing that names a person is left anywhere.
    await expect
      .poll(() =>
        findInDatabase(t.database.db, [
          org.email,
          member.email,
          "invitee-goneorg@elsewhere.example",
          "cus_goneorg_7731",
          "203.0.113.77",
          "203.0.113.78",
        ]),
      )
      .toEqual([]);
    // Who only asked to join keeps their account, without the request.
    expect((await t.app.inject({ url: "/api/me", headers: authHeader(applicant.token) })).statusCode).toBe(
      200,
    );
    // The partner's own people are untouched.
    expect(await findInDatabase(t.database.db, [partner.email])).not.toEqual([]);
  });

  it("deletes nothing for an admin who is one no more when the link is used", async () => {
    const buddies = await createBuddies(t, ["demotedorg", "demotedpartner"]);
    const other = await addMember(t, buddies.org.organizationId, "admin");
    const asked = await t.app.inject({
      method: "POST",
      url: "/api/organization/deletion",
      headers: buddies.org.headers,
      payload: { name: "demotedorg" },
    });
    expect(asked.statusCode).toBe(202);
    const token = await deletionTokenFor(buddies.org.email);
    const team = (await t.app.inject({ url: "/api/team-members", headers: other.headers })).json();
    const first = team.find((m: { user: { email: string } }) => m.user.email === buddies.org.email);
    const demoted = await t.app.inject({
      method: "PATCH",
      url: `/api/team-members/${first.id}`,
      headers: other.headers,
      payload: { role: "member" },
    });
    expect(demoted.statusCode, demoted.body).toBe(200);

    const refused = await confirm(token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: DELETION_MESSAGES.notAdmin });
    expect(await stillThere(buddies.org.organizationId)).toBe(true);
  });
});

describe("deleting an account", () => {
  it("asks the last admin to hand over first, and deletes a member's account from a mailed link", async () => {
    const buddies = await createBuddies(t, ["keptorg", "keptpartner"]);
    const { org } = buddies;
    const member = await addMember(t, org.organizationId);

    const lastAdmin = await t.app.inject({
      method: "POST",
      url: "/api/account/deletion",
      headers: org.headers,
    });
    expect(lastAdmin.statusCode).toBe(409);
    expect(lastAdmin.json()).toEqual({ message: DELETION_MESSAGES.lastAdmin });
    expect((await t.app.inject({ method: "POST", url: "/api/account/deletion" })).statusCode).toBe(401);

    const asked = await t.app.inject({
      method: "POST",
      url: "/api/account/deletion",
      headers: member.headers,
      remoteAddress: "203.0.113.91",
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const confirmed = await confirm(await deletionTokenFor(member.email));
    expect(confirmed.json()).toEqual({ kind: "account", message: DELETION_MESSAGES.accountDeleted });

    expect((await t.app.inject({ url: "/api/me", headers: member.headers })).statusCode).toBe(401);
    expect(await findInDatabase(t.database.db, [member.email, "203.0.113.91"])).toEqual([]);
    // The organization stays, and its log says an account was deleted, naming nobody.
    expect((await t.app.inject({ url: "/api/me", headers: org.headers })).statusCode).toBe(200);
    const log = await t.database.db
      .select()
      .from(securityLog)
      .where(eq(securityLog.organizationId, org.organizationId));
    expect(log.find((entry) => entry.action === "account_deleted")).toMatchObject({
      actorEmail: null,
      actorUserId: null,
      ipAddress: null,
      target: null,
    });
    expect(log.some((entry) => entry.action === "account_deletion_requested")).toBe(true);
  });
});

describe("erasing no one else", () => {
  it("rewrites the deleted person's address, never a longer one that holds it, nor another's mail", async () => {
    const { org } = await createBuddies(t, ["exactorg", "exactpartner"]);
    const member = await addMember(t, org.organizationId);
    const longer = [`jim${member.email}`, `${member.email}.au`, `${member.email.replace("@", "@mail.")}`];
    const other = await createBuddies(t, ["exactother", "exactotherpartner"]);
    await t.database.db.insert(securityLog).values([
      { organizationId: org.organizationId, action: "role_changed", target: `${member.email} (admin)` },
      ...longer.map((address) => ({
        organizationId: other.org.organizationId,
        action: "member_removed" as const,
        target: address,
      })),
    ]);
    await t.database.db.insert(jobs).values(
      longer.map((address) => ({
        kind: "mail" as const,
        partitionKey: MAIL_PARTITION,
        status: "done" as const,
        payload: { kind: "message", to: address, subject: "Kept", text: "Kept", html: "<p>Kept</p>" },
      })),
    );

    await t.app.inject({ method: "POST", url: "/api/account/deletion", headers: member.headers });
    await confirm(await deletionTokenFor(member.email));

    const targets = (await t.database.db.select({ target: securityLog.target }).from(securityLog)).map(
      (row) => row.target,
    );
    expect(targets).toContain("a deleted account (admin)");
    for (const address of longer) expect(targets).toContain(address);
    const mailTo = (
      await t.database.db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.kind, "mail"))
    ).map((row) => (row.payload as { to: string }).to);
    for (const address of longer) expect(mailTo).toContain(address);
    expect(mailTo).not.toContain(member.email);
  });

  it("takes an organization's invitations and their mail, and leaves what another organization holds of the invitee", async () => {
    const { org: gone } = await createBuddies(t, ["inviteorg", "invitepartner"]);
    const { org: kept } = await createBuddies(t, ["keepsinvites", "keepsinvitespartner"]);
    const invitee = `invitee-${crypto.randomUUID().slice(0, 8)}@example.com`;
    for (const inviter of [gone, kept]) {
      const invited = await t.app.inject({
        method: "POST",
        url: "/api/team-members/invite",
        headers: inviter.headers,
        payload: { email: invitee, role: "member" },
      });
      expect(invited.statusCode, invited.body).toBe(201);
    }
    await t.app.outbox.drain();

    await t.app.inject({
      method: "POST",
      url: "/api/organization/deletion",
      headers: gone.headers,
      payload: { name: "inviteorg" },
    });
    expect((await confirm(await deletionTokenFor(gone.email))).statusCode).toBe(200);

    const subjects = (
      await t.database.db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.kind, "mail"))
    )
      .map((row) => row.payload as { to: string; subject: string })
      .filter((mail) => mail.to === invitee)
      .map((mail) => mail.subject);
    expect(subjects).toEqual([expect.stringMatching(/invited you to join keepsinvites on Buddy$/)]);
    const invitations = await t.database.db
      .select({ organizationId: teamInvitations.organizationId })
      .from(teamInvitations)
      .where(eq(teamInvitations.email, invitee));
    expect(invitations).toEqual([{ organizationId: kept.organizationId }]);
    const keptLog = await t.database.db
      .select({ target: securityLog.target })
      .from(securityLog)
      .where(eq(securityLog.organizationId, kept.organizationId));
    expect(keptLog.map((row) => row.target)).toContain(`${invitee} (member)`);
  });
});

describe("bad input", () => {
  it("answers 400 with a message and deletes nothing", async () => {
    const buddies = await createBuddies(t, ["badinputorg", "badinputpartner"]);
    for (const token of ["", "a".repeat(201), "abc\u0000def", "abc\ud800", "not a token!", 42, null]) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/deletion/confirm",
        payload: { token },
      });
      expect(response.statusCode, String(token)).toBe(400);
      expect(Object.keys(response.json())).toEqual(["message"]);
    }
    const malformed = await t.app.inject({
      method: "POST",
      url: "/api/deletion/confirm",
      headers: { "content-type": "application/json" },
      payload: "{",
    });
    expect(malformed.statusCode).toBe(400);
    for (const name of [42, "goo\u0000d", "\ud800", "x".repeat(201), null]) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/organization/deletion",
        headers: buddies.org.headers,
        payload: { name },
      });
      expect(response.statusCode, String(name)).toBe(400);
    }
    expect(await stillThere(buddies.org.organizationId)).toBe(true);
  });
});

describe("a deletion cut short", () => {
  it("has its raw events erased by the next data lifecycle pass", async () => {
    const buddies = await createBuddies(t, ["cutorg", "cutpartner"]);
    // As if the instance died once the deletion committed, before erasing the events.
    await t.database.db.insert(deletedOrganizations).values({ id: buddies.org.organizationId });
    const clicks = () =>
      t.database.db.select().from(clickEvents).where(eq(clickEvents.targetOrgId, buddies.org.organizationId));
    expect(await clicks()).toHaveLength(1);

    await t.app.dataLifecycle.sweep();
    expect(await clicks()).toEqual([]);
    const [tombstone] = await t.database.db
      .select()
      .from(deletedOrganizations)
      .where(eq(deletedOrganizations.id, buddies.org.organizationId));
    expect(tombstone?.eventsErasedAt).toBeInstanceOf(Date);
  });
});
