import { DOMAIN_MESSAGES } from "@shared/domain-verification";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { domainClaims, memberships, organizations } from "../../db/schema";
import {
  authHeader,
  createApiKey,
  createOrganization,
  onboardingForm,
  signUpVerified,
  type TestApp,
} from "../../testing/app";
import { createDomainProofTestApp, type DnsServer, type Sites } from "../../testing/domain-proof";

let t: TestApp;
let dns: DnsServer;
let sites: Sites;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ t, dns, sites, close } = await createDomainProofTestApp());
});
afterAll(() => close());
const form = (companyName: string, website: string) =>
  onboardingForm(companyName, website, {
    description: `${companyName} makes software that helps teams work together.`,
  });

type Person = { headers: Record<string, string>; userId: string; email: string };

async function person(email: string): Promise<Person> {
  const { token, user } = await signUpVerified(t, email);
  return { headers: authHeader(token), userId: user.id, email };
}
const gmailUser = (label: string) => person(`${label}-${crypto.randomUUID().slice(0, 8)}@gmail.com`);

const onboard = (who: Person, payload: object) =>
  t.app.inject({ method: "POST", url: "/api/onboarding", headers: who.headers, payload });
const check = (who: Person) =>
  t.app.inject({ method: "POST", url: "/api/onboarding/domain-check", headers: who.headers });
const me = async (who: Person) => (await t.app.inject({ url: "/api/me", headers: who.headers })).json().user;
const tokenOf = async (who: Person): Promise<string> => (await me(who)).domainClaim.token;

/** Checks are spaced 3 s apart; a test moves the last one back rather than waiting. */
async function allowCheckAgain(who: Person) {
  await t.database.db
    .update(domainClaims)
    .set({ checkedAt: new Date(Date.now() - 60_000) })
    .where(eq(domainClaims.userId, who.userId));
}

async function organizationRow(domain: string) {
  const [row] = await t.database.db.select().from(organizations).where(eq(organizations.domain, domain));
  return row;
}
const membershipsOf = (who: Person) =>
  t.database.db
    .select({
      organizationId: memberships.organizationId,
      role: memberships.role,
      status: memberships.status,
    })
    .from(memberships)
    .where(eq(memberships.userId, who.userId));

describe("domain control before ownership: the squatting scenario", () => {
  it("a gmail user gets a claim, not Dialpad; the real owner gets Dialpad; the squatter only asks to join", async () => {
    const catalog = await organizationRow("dialpad.com");
    expect(catalog).toMatchObject({ name: "Dialpad", domainVerifiedAt: null });

    // A partner that already lists Dialpad as a Buddy, serving its ads through the Ads API.
    const partner = await createOrganization(t, "dialfan");
    const related = await t.app.inject({
      method: "POST",
      url: "/api/relationships",
      headers: partner.headers,
      payload: { organizationId: catalog?.id, type: "complement" },
    });
    expect(related.statusCode, related.body).toBe(201);
    const { key } = await createApiKey(t, partner);
    const servedToPartner = () => t.app.inject({ url: "/api/ads", headers: { "x-api-key": key } });

    const squatter = await gmailUser("someone");
    const opened = await onboard(squatter, {
      ...form("Dialpad", "https://www.dialpad.com/"),
      description: "Official Dialpad partner portal. Sign in to claim your reward today.",
    });
    expect(opened.statusCode, opened.body).toBe(202);
    expect(opened.json()).toEqual({
      message: "Verify that you control dialpad.com to finish setting up Buddy.",
      user: expect.objectContaining({
        organizationId: null,
        role: null,
        hasCompletedOnboarding: false,
        canApproveMembers: false,
        pendingOrganization: null,
        domainClaim: { domain: "dialpad.com", token: expect.any(String) },
      }),
    });
    expect((await me(squatter)).domainClaim).toEqual(opened.json().user.domainClaim);
    expect(await membershipsOf(squatter)).toEqual([]);
    expect(await organizationRow("dialpad.com")).toEqual(catalog);

    // Nothing to publish from, so nothing for any partner to serve.
    const ad = await t.app.inject({
      method: "POST",
      url: "/api/marketing/collateral",
      headers: squatter.headers,
      payload: {
        name: "Claim your reward",
        description: "Sign in",
        ctaText: "Sign in",
        ctaUrl: "https://dialpad.com.login-check.example/",
        status: "active",
      },
    });
    expect(ad.statusCode).toBe(403);
    expect(ad.json()).toEqual({ message: "Complete your company set-up first" });
    expect((await t.app.inject({ url: "/api/organization", headers: squatter.headers })).statusCode).toBe(
      403,
    );
    expect((await servedToPartner()).statusCode).toBe(404);

    const notYet = await check(squatter);
    expect(notYet.statusCode).toBe(200);
    expect(notYet.json().message).toBe(DOMAIN_MESSAGES.notFound("dialpad.com"));
    expect(notYet.json().user.domainClaim.domain).toBe("dialpad.com");
    const tooSoon = await check(squatter);
    expect(tooSoon.statusCode).toBe(429);
    expect(Number(tooSoon.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(tooSoon.json()).toEqual({ message: expect.stringContaining("Too many attempts") });

    // The real owner: their verified address at dialpad.com proves the domain at once.
    const owner = await person("ceo@dialpad.com");
    const owned = await onboard(owner, form("Dialpad Inc", "dialpad.com"));
    expect(owned.statusCode, owned.body).toBe(201);
    expect(owned.json().user).toMatchObject({
      organizationId: catalog?.id,
      role: "admin",
      canApproveMembers: true,
      hasCompletedOnboarding: true,
    });
    const organization = (await t.app.inject({ url: "/api/organization", headers: owner.headers })).json();
    expect(organization).toMatchObject({
      name: "Dialpad Inc",
      domain: "dialpad.com",
      isPlatformUser: true,
      domainVerified: true,
    });
    const status = await t.app.inject({
      url: "/api/organization/domain-verification",
      headers: owner.headers,
    });
    expect(status.json()).toMatchObject({ domain: "dialpad.com", verified: true, method: "email" });

    // The squatter publishes their token everywhere afterwards: Dialpad is not handed over.
    const squatterToken = await tokenOf(squatter);
    sites.publishTag("dialpad.com", squatterToken);
    dns.publishTxt("dialpad.com", squatterToken);
    await allowCheckAgain(squatter);
    const joined = await check(squatter);
    expect(joined.statusCode, joined.body).toBe(202);
    expect(joined.json().user).toMatchObject({
      organizationId: null,
      hasCompletedOnboarding: false,
      pendingOrganization: { name: "Dialpad Inc" },
      domainClaim: null,
    });
    expect(await membershipsOf(squatter)).toEqual([
      { organizationId: catalog?.id, role: "member", status: "pending" },
    ]);
    expect(await membershipsOf(owner)).toEqual([
      { organizationId: catalog?.id, role: "admin", status: "active" },
    ]);
    await t.mail.waitFor((m) => m.to === "ceo@dialpad.com" && m.subject.includes("asks to join"));
    // The claim is gone: nothing left to check, and onboarding again only asks to join again.
    expect((await check(squatter)).statusCode).toBe(404);
    const again = await onboard(squatter, form("Dialpad", "dialpad.com"));
    expect(again.statusCode).toBe(202);
    expect(again.json().user.pendingOrganization).toEqual({ name: "Dialpad Inc" });
    expect((await organizationRow("dialpad.com"))?.name).toBe("Dialpad Inc");
  });
});

describe("a claim completed by the meta tag or the TXT record", () => {
  it.each([
    [
      "meta tag",
      "meta_tag",
      "tagco.test",
      (domain: string, token: string) => sites.publishTag(domain, token),
    ],
    ["TXT record", "dns_txt", "txtco.test", (domain: string, token: string) => dns.publishTxt(domain, token)],
  ])("the %s sets the organization up as the form said", async (_way, method, domain, publish) => {
    const founder = await gmailUser("founder");
    const opened = await onboard(founder, {
      ...form("Proven Co", `https://www.${domain}/about`),
      selectedCompetitors: ["RingCentral"],
      selectedComplements: ["Slack"],
    });
    expect(opened.statusCode, opened.body).toBe(202);
    expect(await organizationRow(domain)).toBeUndefined();

    publish(domain, await tokenOf(founder));
    const completed = await check(founder);
    expect(completed.statusCode, completed.body).toBe(201);
    expect(completed.json()).toMatchObject({
      message: "Onboarding completed successfully",
      user: { role: "admin", hasCompletedOnboarding: true, canApproveMembers: true },
    });
    expect(completed.json().user.domainClaim).toBeUndefined();
    const headers = founder.headers;
    expect((await t.app.inject({ url: "/api/organization", headers })).json()).toMatchObject({
      name: "Proven Co",
      domain,
      description: "Proven Co makes software that helps teams work together.",
      isPlatformUser: true,
      domainVerified: true,
    });
    expect(
      (await t.app.inject({ url: "/api/organization/domain-verification", headers })).json(),
    ).toMatchObject({ verified: true, method });
    const relationships = (await t.app.inject({ url: "/api/relationships", headers })).json();
    expect(
      relationships
        .map((r: { type: string; targetOrg: { domain: string } }) => [r.type, r.targetOrg.domain])
        .sort(),
    ).toEqual([
      ["competitor", "ringcentral.com"],
      ["complement", "slack.com"],
    ]);
    // Proven: it publishes ads on its own site.
    const ad = await t.app.inject({
      method: "POST",
      url: "/api/marketing/collateral",
      headers,
      payload: {
        name: "Try Proven",
        description: "It works",
        ctaText: "Try",
        ctaUrl: `https://${domain}/start`,
        status: "active",
      },
    });
    expect(ad.statusCode, ad.body).toBe(201);
  });

  it("gives rival claimants their own tokens: the one whose token is published wins, the other asks to join", async () => {
    const first = await gmailUser("rival-a");
    const second = await gmailUser("rival-b");
    expect((await onboard(first, form("Rival A", "rival.test"))).statusCode).toBe(202);
    expect((await onboard(second, form("Rival B", "https://rival.test"))).statusCode).toBe(202);
    const [firstToken, secondToken] = [await tokenOf(first), await tokenOf(second)];
    expect(firstToken).not.toBe(secondToken);
    expect(firstToken.length).toBeGreaterThanOrEqual(20);

    dns.publishTxt("rival.test", secondToken);
    const lost = await check(first);
    expect(lost.statusCode).toBe(200);
    expect(lost.json().message).toBe(DOMAIN_MESSAGES.notFound("rival.test"));
    expect((await check(second)).statusCode).toBe(201);

    // Publishing the loser's token too, afterwards, hands nothing over.
    sites.publishTag("rival.test", firstToken);
    await allowCheckAgain(first);
    const pending = await check(first);
    expect(pending.statusCode).toBe(202);
    expect(pending.json().user.pendingOrganization).toEqual({ name: "Rival B" });
    const organization = await organizationRow("rival.test");
    expect(organization).toMatchObject({ name: "Rival B", domainVerificationMethod: "dns_txt" });
    expect(await membershipsOf(second)).toEqual([
      { organizationId: organization?.id, role: "admin", status: "active" },
    ]);
  });

  it("a later onboarding with a domain someone proved asks to join at once, and drops the user's own claim", async () => {
    const owner = await createOrganization(t, "claimed");
    const late = await gmailUser("late");
    expect((await onboard(late, form("Elsewhere", "elsewhere.test"))).statusCode).toBe(202);
    const joined = await onboard(late, form("Claimed", owner.domain));
    expect(joined.statusCode).toBe(202);
    expect(joined.json().user).toMatchObject({ pendingOrganization: { name: "claimed" }, domainClaim: null });
  });

  it("replaces the claim when the user onboards again with another website, and drops it on request", async () => {
    const user = await gmailUser("changer");
    await onboard(user, form("First Try", "first-try.test"));
    const second = await onboard(user, form("Second Try", "second-try.test"));
    expect(second.statusCode).toBe(202);
    expect(second.json().message).toBe(DOMAIN_MESSAGES.claimOpened("second-try.test"));
    expect((await me(user)).domainClaim.domain).toBe("second-try.test");
    // The earlier domain's token, published, proves nothing about the claim now open.
    sites.publishTag("first-try.test", await tokenOf(user));
    await allowCheckAgain(user);
    expect((await check(user)).statusCode).toBe(200);
    expect(await organizationRow("first-try.test")).toBeUndefined();

    const dropped = await t.app.inject({
      method: "DELETE",
      url: "/api/onboarding/domain-claim",
      headers: user.headers,
    });
    expect(dropped.statusCode).toBe(204);
    expect((await me(user)).domainClaim).toBeNull();
    const none = await check(user);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ message: "There is no domain waiting for verification" });
  });

  it("keeps checks spaced when the form is sent again", async () => {
    const user = await gmailUser("hurried");
    await onboard(user, form("Hurried", "hurried.test"));
    expect((await check(user)).statusCode).toBe(200);
    expect((await onboard(user, form("Hurried", "hurried-two.test"))).statusCode).toBe(202);
    const again = await check(user);
    expect(again.statusCode).toBe(429);
    expect(again.headers["retry-after"]).toBeDefined();
  });

  it("lets one of 20 concurrent checks fetch the site; that one completes onboarding", async () => {
    const user = await gmailUser("rushing");
    await onboard(user, form("Rushing", "rushing.test"));
    sites.publishTag("rushing.test", await tokenOf(user));
    const before = sites.asked.length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => check(user)));
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 201)).toHaveLength(1);
    // The others wait (429), or arrive once the user has their company (409).
    expect(codes.filter((code) => code !== 201).every((code) => code === 429 || code === 409)).toBe(true);
    expect(sites.asked.length - before).toBe(1);
    expect(await membershipsOf(user)).toEqual([expect.objectContaining({ role: "admin", status: "active" })]);
  });

  it("no public suffix is claimed by a tag on it", async () => {
    const user = await gmailUser("suffix");
    const opened = await onboard(user, form("Everyone", "github.io"));
    expect(opened.statusCode).toBe(202);
    const token = await tokenOf(user);
    sites.publishTag("github.io", token);
    dns.publishTxt("github.io", token);
    expect((await check(user)).statusCode).toBe(200);
    expect((await organizationRow("github.io"))?.domainVerifiedAt ?? null).toBeNull();
  });
});

describe("access to the claim routes", () => {
  it("needs a signed-in user", async () => {
    for (const [method, url] of [
      ["POST", "/api/onboarding/domain-check"],
      ["DELETE", "/api/onboarding/domain-claim"],
    ] as const) {
      const response = await t.app.inject({ method, url });
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toMatchObject({ message: "Authentication required" });
    }
  });

  it("answers 409 to a user who already has an organization", async () => {
    const admin = await createOrganization(t, "settled");
    const who = { headers: admin.headers, userId: admin.userId, email: admin.email };
    const checked = await check(who);
    expect(checked.statusCode).toBe(409);
    expect(checked.json()).toEqual({ message: "You have already set up your company" });
    expect((await onboard(who, form("Another", "another-co.test"))).statusCode).toBe(409);
    expect(
      await t.database.db.select().from(domainClaims).where(eq(domainClaims.userId, admin.userId)),
    ).toEqual([]);
  });
});
