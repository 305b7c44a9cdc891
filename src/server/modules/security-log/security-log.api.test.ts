import {
  SECURITY_LOG_PAGE_SIZE,
  type SecurityLogAction,
  type SecurityLogEntry,
  type SecurityLogResponse,
} from "@shared/security-log";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberships, organizations, securityLog } from "../../db/schema";
import {
  addMember,
  authHeader,
  createOrganization,
  onboardingForm,
  STRONG_PASSWORD,
  signUpVerified,
  TEST_PUBLIC_URL,
  type TestApp,
} from "../../testing/app";
import { createDomainProofTestApp, type DnsServer, type Sites } from "../../testing/domain-proof";
import { linkFrom, tokenFrom } from "../../testing/mail-receiver";

/** CONTRACT §3: the security log, through the API, for every action it records. */
let t: TestApp;
let dns: DnsServer;
let sites: Sites;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ t, dns, sites, close } = await createDomainProofTestApp());
});
afterAll(() => close());

type Org = Awaited<ReturnType<typeof createOrganization>>;
type Headers = Record<string, string>;
/** The client address the acting requests come from (TRUST_PROXY is off: the socket's address). */
const IP = "198.51.100.23";
const uniqueEmail = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;

/** A request from `ip`, answered with the status it must have. */
async function call(
  headers: Headers,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  expected: number,
  payload?: object,
  ip = IP,
) {
  const response = await t.app.inject({ method, url, headers, payload, remoteAddress: ip });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(expected);
  return response;
}

async function readLog(headers: Headers, query = ""): Promise<SecurityLogResponse> {
  const response = await t.app.inject({ url: `/api/security-log${query}`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The entries `act` added to the organization's log, newest first. */
async function added(org: { headers: Headers }, act: () => Promise<unknown>): Promise<SecurityLogEntry[]> {
  const before = new Set((await readLog(org.headers)).entries.map((entry) => entry.id));
  await act();
  return (await readLog(org.headers)).entries.filter((entry) => !before.has(entry.id));
}

const entry = (action: SecurityLogAction, actorEmail: string, target: string | null, ipAddress = IP) => ({
  id: expect.any(String),
  action,
  actorEmail,
  target,
  ipAddress,
  createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
});

const teamRow = async (org: Org, email: string) => {
  const rows = (await call(org.headers, "GET", "/api/team-members", 200)).json() as {
    id: string;
    user: { email: string };
  }[];
  const row = rows.find((member) => member.user.email === email);
  if (!row) throw new Error(`${email} is not in the team`);
  return row;
};

describe("what the security log records", () => {
  let admin: Org;
  beforeAll(async () => {
    admin = await createOrganization(t, "seclogco");
  });

  it("API keys: created and revoked, by name", async () => {
    let id = "";
    expect(
      await added(admin, async () => {
        id = (await call(admin.headers, "POST", "/api/api-keys", 201, { name: "Production key" })).json().id;
      }),
    ).toEqual([entry("api_key_created", admin.email, "Production key")]);
    expect(await added(admin, () => call(admin.headers, "DELETE", `/api/api-keys/${id}`, 204))).toEqual([
      entry("api_key_revoked", admin.email, "Production key"),
    ]);
    // Revoked already: nothing happened, and nothing is logged.
    expect(await added(admin, () => call(admin.headers, "DELETE", `/api/api-keys/${id}`, 404))).toEqual([]);
  });

  it("webhook endpoints: created, changed, secret rotated and deleted, by URL", async () => {
    const url = "https://hooks.seclog.example/in";
    const moved = "https://hooks.seclog.example/moved";
    let id = "";
    expect(
      await added(admin, async () => {
        const created = await call(admin.headers, "POST", "/api/webhooks", 201, {
          url,
          events: ["conversion.created"],
        });
        id = created.json().id;
      }),
    ).toEqual([entry("webhook_created", admin.email, url)]);
    const path = `/api/webhooks/${id}`;
    // A new URL is logged with the old one: where messages went, and where they go now.
    expect(await added(admin, () => call(admin.headers, "PATCH", path, 200, { url: moved }))).toEqual([
      entry("webhook_updated", admin.email, `${url} → ${moved}`),
    ]);
    expect(await added(admin, () => call(admin.headers, "PATCH", path, 200, { enabled: false }))).toEqual([
      entry("webhook_updated", admin.email, moved),
    ]);
    expect(await added(admin, () => call(admin.headers, "POST", `${path}/rotate-secret`, 200))).toEqual([
      entry("webhook_secret_rotated", admin.email, moved),
    ]);
    expect(await added(admin, () => call(admin.headers, "DELETE", path, 204))).toEqual([
      entry("webhook_deleted", admin.email, moved),
    ]);
    expect(await added(admin, () => call(admin.headers, "DELETE", path, 404))).toEqual([]);
    expect(await added(admin, () => call(admin.headers, "PATCH", path, 404, { enabled: true }))).toEqual([]);
  });

  it("invitations: sent by the inviter, accepted by whoever joins, through sign-up or sign-in", async () => {
    const newcomer = uniqueEmail("newcomer");
    expect(
      await added(admin, () =>
        call(admin.headers, "POST", "/api/team-members/invite", 201, { email: newcomer, role: "admin" }),
      ),
    ).toEqual([entry("invitation_sent", admin.email, `${newcomer} (admin)`)]);
    /** Signs up or in with the link the invitation mailed to `email`, from `ip`. */
    const throughInvitation = async (mode: "signup" | "login", email: string, ip: string) => {
      const mail = await t.mail.waitFor((m) => m.to === email && m.subject.includes("invited you to join"));
      const inviteToken = new URL(linkFrom(mail, `${TEST_PUBLIC_URL}/auth?`)).searchParams.get("invite");
      const payload = { email, password: STRONG_PASSWORD, mode, inviteToken };
      return call({}, "POST", "/api/auth", mode === "signup" ? 201 : 200, payload, ip);
    };
    // Signing up through the link joins at once, from the sign-up's own address.
    expect(await added(admin, () => throughInvitation("signup", newcomer, "203.0.113.5"))).toEqual([
      entry("invitation_accepted", newcomer, `${newcomer} (admin)`, "203.0.113.5"),
    ]);

    // Someone with an account joins by signing in through the link: the joining and the sign-in.
    const existing = await signUpVerified(t, uniqueEmail("existing"));
    const email = existing.user.email;
    await call(admin.headers, "POST", "/api/team-members/invite", 201, { email, role: "member" });
    expect(await added(admin, () => throughInvitation("login", email, "203.0.113.6"))).toEqual([
      entry("sign_in", email, null, "203.0.113.6"),
      entry("invitation_accepted", email, `${email} (member)`, "203.0.113.6"),
    ]);
  });

  it("members: approved, role changed, removed, each by the member's address", async () => {
    const applicant = await signUpVerified(t, uniqueEmail("applicant"));
    // Onboarding with the organization's website asks to join it.
    const form = onboardingForm("Seclog", `https://${admin.domain}`);
    await call(authHeader(applicant.token), "POST", "/api/onboarding", 202, form);
    const email = applicant.user.email;
    const { id } = await teamRow(admin, email);
    expect(
      await added(admin, () => call(admin.headers, "POST", `/api/team-members/${id}/approve`, 200)),
    ).toEqual([entry("member_approved", admin.email, email)]);
    const path = `/api/team-members/${id}`;
    expect(await added(admin, () => call(admin.headers, "PATCH", path, 200, { role: "admin" }))).toEqual([
      entry("role_changed", admin.email, `${email} (admin)`),
    ]);
    // The role it already has: no change, no entry.
    expect(await added(admin, () => call(admin.headers, "PATCH", path, 200, { role: "admin" }))).toEqual([]);
    expect(await added(admin, () => call(admin.headers, "DELETE", path, 204))).toEqual([
      entry("member_removed", admin.email, email),
    ]);
    expect(await added(admin, () => call(admin.headers, "DELETE", path, 404))).toEqual([]);
  });

  it("Stripe: connected and disconnected", async () => {
    const path = "/api/integrations/stripe";
    const secret = { webhookSecret: "whsec_securityLogSigningSecret0123" };
    expect(await added(admin, () => call(admin.headers, "PUT", path, 200, secret))).toEqual([
      entry("stripe_connected", admin.email, null),
    ]);
    expect(await added(admin, () => call(admin.headers, "DELETE", path, 204))).toEqual([
      entry("stripe_disconnected", admin.email, null),
    ]);
    // Nothing left to disconnect.
    expect(await added(admin, () => call(admin.headers, "DELETE", path, 204))).toEqual([]);
  });

  it("sign-ins and password resets of the organization's members", async () => {
    const member = await addMember(t, admin.organizationId);
    const login = { email: member.email, password: STRONG_PASSWORD, mode: "login" };
    expect(await added(admin, () => call({}, "POST", "/api/auth", 200, login))).toEqual([
      entry("sign_in", member.email, null),
    ]);
    // A wrong password signs no one in.
    const wrong = { ...login, password: "Wrong-passw0rd!" };
    expect(await added(admin, () => call({}, "POST", "/api/auth", 401, wrong))).toEqual([]);

    await call({}, "POST", "/api/forgot-password", 200, { email: member.email });
    const mail = await t.mail.waitFor(
      (m) => m.to === member.email && m.text.includes("/reset-password?token="),
    );
    const token = tokenFrom(mail, `${TEST_PUBLIC_URL}/reset-password`);
    const reset = { token, password: "N3w-secret-pass!" };
    expect(await added(admin, () => call({}, "POST", "/api/reset-password", 200, reset))).toEqual([
      entry("password_reset", member.email, null),
    ]);
  });
});

describe("domain proofs in the security log", () => {
  const verification = (headers: Headers) =>
    t.app.inject({ url: "/api/organization/domain-verification", headers });
  const moveTo = (headers: Headers, website: string) =>
    call(headers, "PATCH", "/api/organization", 200, { name: "Proving Co", website });
  const checkAgain = (headers: Headers) =>
    call(headers, "POST", "/api/organization/domain-verification", 200);

  it("onboarding with an address at the domain proves it, by e-mail", async () => {
    const org = await createOrganization(t, "provedatonboarding");
    const { entries } = await readLog(org.headers);
    // createOrganization's requests come from inject's own address.
    expect(entries).toContainEqual(
      entry("domain_proved", org.email, `${org.domain} (e-mail address)`, "127.0.0.1"),
    );
  });

  it("a website move the admin's address proves, a meta tag and a TXT record", async () => {
    const org = await createOrganization(t, "provingco");
    const newHome = `seclog-${crypto.randomUUID().slice(0, 6)}.test`;
    const mover = await signUpVerified(t, `cto@${newHome}`);
    await t.database.db
      .insert(memberships)
      .values({ organizationId: org.organizationId, userId: mover.user.id, role: "admin", status: "active" });
    expect(await added(org, () => moveTo(authHeader(mover.token), newHome))).toEqual([
      entry("domain_proved", mover.user.email, `${newHome} (e-mail address)`),
    ]);

    // A move to a domain nobody proved yet waits, and logs nothing until a check finds the tag.
    const tagged = `tagged-${crypto.randomUUID().slice(0, 6)}.test`;
    expect(await added(org, () => moveTo(org.headers, tagged))).toEqual([]);
    sites.publishTag(tagged, (await verification(org.headers)).json().token);
    expect(await added(org, () => checkAgain(org.headers))).toEqual([
      entry("domain_proved", org.email, `${tagged} (meta tag)`),
    ]);

    const txt = `txt-${crypto.randomUUID().slice(0, 6)}.test`;
    await moveTo(org.headers, txt);
    dns.publishTxt(txt, (await verification(org.headers)).json().token);
    // Checks are spaced 3 s apart: the last one moved back rather than waited for.
    await t.database.db
      .update(organizations)
      .set({ domainCheckedAt: new Date(Date.now() - 60_000) })
      .where(eq(organizations.id, org.organizationId));
    expect(await added(org, () => checkAgain(org.headers))).toEqual([
      entry("domain_proved", org.email, `${txt} (DNS TXT record)`),
    ]);
  });
});

describe("who reads the security log", () => {
  let admin: Org;
  let other: Org;
  beforeAll(async () => {
    admin = await createOrganization(t, "readerco");
    other = await createOrganization(t, "otherco");
    await call(admin.headers, "POST", "/api/api-keys", 201, { name: "Reader key" });
    await call(other.headers, "POST", "/api/api-keys", 201, { name: "Other key" });
  });

  it("is for admins: members get 403, signed-out callers 401", async () => {
    const member = await addMember(t, admin.organizationId);
    const refused = await t.app.inject({ url: "/api/security-log", headers: member.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: "Only admins can do this" });
    expect((await t.app.inject({ url: "/api/security-log" })).statusCode).toBe(401);
  });

  it("shows an organization its own entries only, whatever cursor it sends", async () => {
    const mine = (await readLog(admin.headers)).entries;
    const theirs = (await readLog(other.headers)).entries;
    expect(mine.map((e) => e.target)).toContain("Reader key");
    expect(theirs.map((e) => e.target)).toContain("Other key");
    const mineIds = new Set(mine.map((e) => e.id));
    expect(theirs.filter((e) => mineIds.has(e.id))).toEqual([]);
    expect(new Set(theirs.map((e) => e.actorEmail))).toEqual(new Set([other.email]));

    // A cursor from the other organization's log, or one made up far in the future.
    const { nextCursor } = await readLog(admin.headers, "?limit=1");
    const future = Buffer.from(JSON.stringify(["2100-12-31T23:59:59.999999Z", crypto.randomUUID()])).toString(
      "base64url",
    );
    for (const cursor of [nextCursor, future]) {
      const page = await readLog(other.headers, `?before=${cursor}`);
      expect(page.entries.filter((e) => mineIds.has(e.id))).toEqual([]);
      expect(page.entries.every((e) => e.actorEmail === other.email)).toBe(true);
    }
  });
});

describe("paging", () => {
  let admin: Org;
  beforeAll(async () => {
    admin = await createOrganization(t, "pagingco");
    for (let i = 1; i <= 5; i++)
      await call(admin.headers, "POST", "/api/api-keys", 201, { name: `Key ${i}` });
    // Three entries within one millisecond (an hour ago): a page may end between them.
    const millisecond = new Date(Date.now() - 60 * 60_000).toISOString();
    for (const [micro, name] of [
      [100, "Same ms 1"],
      [400, "Same ms 2"],
      [700, "Same ms 3"],
    ] as const) {
      await t.database.db.insert(securityLog).values({
        organizationId: admin.organizationId,
        action: "api_key_created",
        target: name,
        createdAt: sql`${millisecond}::timestamptz + ${micro} * interval '1 microsecond'`,
      });
    }
  });

  async function allPages(limit: number) {
    const pages: SecurityLogEntry[][] = [];
    let query = `?limit=${limit}`;
    for (;;) {
      const page = await readLog(admin.headers, query);
      pages.push(page.entries);
      if (!page.nextCursor) return pages;
      query = `?limit=${limit}&before=${encodeURIComponent(page.nextCursor)}`;
    }
  }

  it("pages newest first with `before`, each entry once", async () => {
    const { entries: all, nextCursor } = await readLog(admin.headers);
    expect(nextCursor).toBeNull();
    // Onboarding's proof, five keys, the three of one millisecond.
    expect(all).toHaveLength(9);
    expect(all.slice(0, 5).map((e) => e.target)).toEqual(["Key 5", "Key 4", "Key 3", "Key 2", "Key 1"]);
    expect(all.slice(-3).map((e) => e.target)).toEqual(["Same ms 3", "Same ms 2", "Same ms 1"]);
    const times = all.map((e) => Date.parse(e.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    for (const limit of [1, 2, 4]) {
      const pages = await allPages(limit);
      expect(pages.flat().map((e) => e.id)).toEqual(all.map((e) => e.id));
      expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true);
    }
  });

  it("answers 50 entries a page by default", async () => {
    expect(SECURITY_LOG_PAGE_SIZE).toBe(50);
    await t.database.db.insert(securityLog).values(
      Array.from({ length: 50 }, (_, i) => ({
        organizationId: admin.organizationId,
        action: "sign_in" as const,
        createdAt: new Date(Date.now() - (i + 2) * 60 * 60_000),
      })),
    );
    const first = await readLog(admin.headers);
    expect(first.entries).toHaveLength(50);
    expect(first.nextCursor).not.toBeNull();
    const rest = await readLog(admin.headers, `?before=${first.nextCursor}`);
    expect(rest.entries).toHaveLength(9);
    expect(rest.nextCursor).toBeNull();
  });

  it("refuses a bad cursor or limit with 400 {message}", async () => {
    const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const bad = [
      ["before=garbage", "Invalid cursor"],
      [`before=${encoded(["2026-02-31T00:00:00.000000Z", "x"])}`, "Invalid cursor"],
      [`before=${encoded(["2026-01-01", "x"])}`, "Invalid cursor"],
      [`before=${encoded({ at: "2026-01-01T00:00:00.000000Z" })}`, "Invalid cursor"],
      // Dates JavaScript reads and PostgreSQL refuses, and ids that are not an entry's: found by an
      // outside tester as 500s.
      [`before=${encoded(["0000-01-01T00:00:00.000000Z", crypto.randomUUID()])}`, "Invalid cursor"],
      [`before=${encoded(["9999-12-31T00:00:00.000000Z", crypto.randomUUID()])}`, "Invalid cursor"],
      [`before=${encoded(["2026-11-28T13:00:00.000000Z", "\u0000"])}`, "Invalid cursor"],
      [`before=${encoded(["2026-11-28T13:00:00.000000Z", "\ud800"])}`, "Invalid cursor"],
      [`before=${encoded(["2026-11-28T13:00:00.000000Z", "x"])}`, "Invalid cursor"],
      ["before=", undefined],
      ["before=a%00b", undefined],
      [`before=${"a".repeat(201)}`, undefined],
      ["limit=0", "limit must be a number from 1 to 50"],
      ["limit=51", "limit must be a number from 1 to 50"],
      ["limit=abc", "limit must be a number from 1 to 50"],
      ["limit=1.5", "limit must be a number from 1 to 50"],
    ] as const;
    for (const [query, message] of bad) {
      const response = await t.app.inject({ url: `/api/security-log?${query}`, headers: admin.headers });
      expect(response.statusCode, query).toBe(400);
      const body = response.json();
      expect(Object.keys(body), query).toEqual(["message"]);
      if (message) expect(body.message, query).toBe(message);
      else expect(body.message, query).toEqual(expect.any(String));
    }
  });
});
