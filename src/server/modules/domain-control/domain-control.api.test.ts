import { DOMAIN_MESSAGES } from "@shared/domain-verification";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizations } from "../../db/schema";
import {
  addMember,
  authHeader,
  createApiKey,
  createOrganization,
  relate,
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
type Headers = Record<string, string>;
const BROWSER = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36" };

const organizationOf = async (headers: Headers) =>
  (await t.app.inject({ url: "/api/organization", headers })).json();
const moveWebsite = (headers: Headers, website: string) =>
  t.app.inject({
    method: "PATCH",
    url: "/api/organization",
    headers,
    payload: { name: "Moving Co", website },
  });
const verification = (headers: Headers) =>
  t.app.inject({ url: "/api/organization/domain-verification", headers });
const checkAgain = (headers: Headers) =>
  t.app.inject({ method: "POST", url: "/api/organization/domain-verification", headers });
const collateral = (headers: Headers, ctaUrl: string, status: "active" | "draft") =>
  t.app.inject({
    method: "POST",
    url: "/api/marketing/collateral",
    headers,
    payload: { name: `Ad ${status}`, description: "Our product", ctaText: "Try it", ctaUrl, status },
  });

/** Checks are spaced 3 s apart; a test moves the last one back rather than waiting. */
async function allowCheckAgain(organizationId: string) {
  await t.database.db
    .update(organizations)
    .set({ domainCheckedAt: new Date(Date.now() - 60_000) })
    .where(eq(organizations.id, organizationId));
}

const cancelMove = (headers: Headers) =>
  t.app.inject({ method: "DELETE", url: "/api/organization/pending-domain", headers });

/** A proven organization with a partner serving its active ad, and a second admin whose address proves nothing. */
async function movingCompany(label: string) {
  const mover = await createOrganization(t, label);
  const coAdmin = await addMember(t, mover.organizationId, "admin");
  const partner = await createOrganization(t, `${label}fan`);
  await relate(t, partner, mover.organizationId, "complement");
  const { key } = await createApiKey(t, partner);
  const served = async () => {
    const response = await t.app.inject({ url: "/api/ads?limit=5", headers: { "x-api-key": key } });
    if (response.statusCode === 404) return [];
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().ads as { name: string }[]).map((ad) => ad.name);
  };
  const ad = await collateral(mover.headers, `https://${mover.domain}/go`, "active");
  expect(ad.statusCode, ad.body).toBe(201);
  const list = await t.app.inject({
    url: `/api/marketing/collateral?organizationId=${mover.organizationId}`,
    headers: partner.headers,
  });
  const tracked: string = list.json()[0].trackedUrl;
  const follow = () => t.app.inject({ url: tracked.slice(tracked.indexOf("/api/")), headers: BROWSER });
  return { mover, coAdmin, partner, served, follow };
}

describe("a website change to a domain the organization has not proven", () => {
  it("waits as pending: the organization keeps its domain, name, badge, ads and approvals until an admin proves the new one", async () => {
    const { mover, coAdmin, served, follow } = await movingCompany("movingco");
    // Both caches warm just before the change: the eligible ads and the followed link's host.
    expect(await served()).toEqual(["Ad active"]);
    expect((await follow()).statusCode).toBe(302);
    const tokenBefore = (await verification(mover.headers)).json().token;

    const moved = await moveWebsite(coAdmin.headers, "https://www.Moved-Co.test/");
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({
      name: "movingco",
      domain: "movingco.example",
      website: "https://movingco.example",
      domainVerified: true,
      isPlatformUser: true,
      pendingDomain: "moved-co.test",
      pendingName: "Moving Co",
    });
    expect(await served()).toEqual(["Ad active"]);
    expect((await follow()).statusCode).toBe(302);
    const status = (await verification(coAdmin.headers)).json();
    expect(status).toEqual({
      domain: "moved-co.test",
      token: expect.any(String),
      verified: false,
      method: null,
    });
    expect(status.token).not.toBe(tokenBefore);
    // Asking for the same change again keeps the token the admin may already have published.
    await moveWebsite(coAdmin.headers, "moved-co.test");
    expect((await verification(coAdmin.headers)).json().token).toBe(status.token);
    // Members approve, invite and publish as before.
    const me = (await t.app.inject({ url: "/api/me", headers: coAdmin.headers })).json().user;
    expect(me).toMatchObject({ role: "admin", canApproveMembers: true });
    expect((await collateral(coAdmin.headers, "https://movingco.example/new", "active")).statusCode).toBe(
      201,
    );
    const offSite = await collateral(coAdmin.headers, "https://moved-co.test/go", "draft");
    expect(offSite.json()).toEqual({ message: "Call to action URL must be on movingco.example" });

    // "Check again" before and after the tag is published on the new domain.
    const notFound = await checkAgain(coAdmin.headers);
    expect(notFound.statusCode).toBe(200);
    expect(notFound.json()).toMatchObject({
      verified: false,
      message: DOMAIN_MESSAGES.notFound("moved-co.test"),
    });
    const tooSoon = await checkAgain(coAdmin.headers);
    expect(tooSoon.statusCode).toBe(429);
    expect(Number(tooSoon.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(tooSoon.headers["retry-after"])).toBeLessThanOrEqual(3);

    sites.publishTag("moved-co.test", status.token);
    await allowCheckAgain(mover.organizationId);
    const verified = await checkAgain(coAdmin.headers);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({
      domain: "moved-co.test",
      token: expect.any(String),
      verified: true,
      method: "meta_tag",
      message: DOMAIN_MESSAGES.verified("moved-co.test"),
    });
    // The published token was used: the organization's next challenge has a new one.
    expect(verified.json().token).not.toBe(status.token);
    expect(await organizationOf(coAdmin.headers)).toMatchObject({
      name: "Moving Co",
      domain: "moved-co.test",
      website: "https://moved-co.test",
      domainVerified: true,
      pendingDomain: null,
      pendingName: null,
    });
    // Proven: a check needs no spacing and fetches nothing.
    const fetched = sites.asked.length;
    expect((await checkAgain(coAdmin.headers)).json()).toMatchObject({ verified: true });
    expect(sites.asked.length).toBe(fetched);
    // Its old ads point at the old domain: no longer served or followed, seen at once.
    expect(await served()).toEqual([]);
    expect((await follow()).statusCode).toBe(400);
  });

  it("is dropped by saving the current website again, or by 'Keep', with its token", async () => {
    const org = await createOrganization(t, "keepco");
    await moveWebsite(org.headers, "keep-elsewhere.test");
    const first = (await verification(org.headers)).json().token;
    const kept = await moveWebsite(org.headers, "keepco.example");
    expect(kept.json()).toMatchObject({ domain: "keepco.example", name: "Moving Co", pendingDomain: null });
    expect((await verification(org.headers)).json()).toMatchObject({
      domain: "keepco.example",
      verified: true,
    });

    await moveWebsite(org.headers, "keep-elsewhere.test");
    const second = (await verification(org.headers)).json().token;
    expect(second).not.toBe(first);
    const cancelled = await cancelMove(org.headers);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({
      domain: "keepco.example",
      pendingDomain: null,
      domainVerified: true,
    });
    // With nothing pending, "Keep" changes nothing, not even the token.
    const tokenNow = (await verification(org.headers)).json().token;
    expect((await cancelMove(org.headers)).statusCode).toBe(200);
    expect((await verification(org.headers)).json().token).toBe(tokenNow);
    // The dropped challenge's token proves nothing any more.
    sites.publishTag("keep-elsewhere.test", second);
    expect((await checkAgain(org.headers)).json()).toMatchObject({
      domain: "keepco.example",
      verified: true,
    });
    expect((await organizationOf(org.headers)).domain).toBe("keepco.example");
  });

  it("moves at once when the acting admin's own address proves the new website", async () => {
    const org = await createOrganization(t, "selfproven");
    const newHome = `newhome-${crypto.randomUUID().slice(0, 6)}.test`;
    const { memberships } = await import("../../db/schema");
    const mover = await signUpVerified(t, `cto@${newHome}`);
    await t.database.db
      .insert(memberships)
      .values({ organizationId: org.organizationId, userId: mover.user.id, role: "admin", status: "active" });
    const moved = await moveWebsite(authHeader(mover.token), newHome);
    expect(moved.json()).toMatchObject({
      domain: newHome,
      name: "Moving Co",
      domainVerified: true,
      pendingDomain: null,
    });
    expect((await verification(org.headers)).json()).toMatchObject({ verified: true, method: "email" });
  });

  it("is proven by a TXT record with the organization's token", async () => {
    const org = await createOrganization(t, "txtmover");
    await moveWebsite(org.headers, "txt-moved.test");
    const { token } = (await verification(org.headers)).json();
    dns.publishTxt("txt-moved.test", token);
    const checked = await checkAgain(org.headers);
    expect(checked.json()).toMatchObject({ domain: "txt-moved.test", verified: true, method: "dns_txt" });
    expect((await organizationOf(org.headers)).domain).toBe("txt-moved.test");
  });

  it("never moves onto a domain another organization holds, proof or not", async () => {
    const org = await createOrganization(t, "latemover");
    await moveWebsite(org.headers, "late-target.test");
    const { token } = (await verification(org.headers)).json();
    // Its owner arrives meanwhile.
    await createOrganization(t, "late-target", { website: "https://late-target.test" });
    dns.publishTxt("late-target.test", token);
    const refused = await checkAgain(org.headers);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: DOMAIN_MESSAGES.alreadyOnBuddy("late-target.test") });
    expect(await organizationOf(org.headers)).toMatchObject({
      domain: "latemover.example",
      domainVerified: true,
    });
  });

  it("lets one of many concurrent checks fetch the site; the others wait, or find it verified", async () => {
    const org = await createOrganization(t, "rushco");
    await moveWebsite(org.headers, "rush-target.test");
    const { token } = (await verification(org.headers)).json();
    sites.publishTag("rush-target.test", token);
    const before = sites.asked.length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => checkAgain(org.headers)));
    expect(sites.asked.length - before).toBe(1);
    // A check that arrives once the proof is applied reads the status, as a later one would.
    const verified = answers.filter((answer) => answer.statusCode === 200);
    expect(verified.length).toBeGreaterThanOrEqual(1);
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(20 - verified.length);
    for (const answer of verified) {
      expect(answer.json()).toMatchObject({
        domain: "rush-target.test",
        verified: true,
        message: DOMAIN_MESSAGES.verified("rush-target.test"),
      });
    }
  });
});

describe("an organization nobody proved (set up before proof was required)", () => {
  it("is proven by its admin's tag, and only then publishes and approves", async () => {
    const org = await createOrganization(t, "legacyco");
    // As migrations leave legacy data: the organization exists, its domain unproven.
    await t.database.db
      .update(organizations)
      .set({ domainVerifiedAt: null, domainVerificationMethod: null })
      .where(eq(organizations.id, org.organizationId));
    expect(await organizationOf(org.headers)).toMatchObject({ domainVerified: false, isPlatformUser: false });
    const refused = await collateral(org.headers, "https://legacyco.example/new", "active");
    expect(refused.json()).toEqual({ message: DOMAIN_MESSAGES.publishNeedsProof("legacyco.example") });
    // An admin whose own address proves nothing (the founder's would).
    const coAdmin = await addMember(t, org.organizationId, "admin");
    const { token } = (await verification(coAdmin.headers)).json();
    sites.publishTag("legacyco.example", token);
    const checked = await checkAgain(coAdmin.headers);
    expect(checked.json()).toMatchObject({
      domain: "legacyco.example",
      verified: true,
      method: "meta_tag",
      message: DOMAIN_MESSAGES.verified("legacyco.example"),
    });
    expect((await collateral(org.headers, "https://legacyco.example/new", "active")).statusCode).toBe(201);
  });
});

describe("access to the organization's domain verification", () => {
  it("needs a signed-in admin of an organization", async () => {
    for (const method of ["GET", "POST"] as const) {
      const url = "/api/organization/domain-verification";
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
      const loner = await signUpVerified(t, `loner-${crypto.randomUUID().slice(0, 8)}@gmail.com`);
      const noOrganization = await t.app.inject({ method, url, headers: authHeader(loner.token) });
      expect(noOrganization.statusCode).toBe(403);
      expect(noOrganization.json()).toEqual({ message: "Complete your company set-up first" });
    }
  });

  it("shows the token only to the organization's own admins", async () => {
    const first = await createOrganization(t, "tokenone");
    const second = await createOrganization(t, "tokentwo");
    const one = (await verification(first.headers)).json();
    const two = (await verification(second.headers)).json();
    expect(one.domain).toBe("tokenone.example");
    expect(two.domain).toBe("tokentwo.example");
    expect(one.token).not.toBe(two.token);
  });
});
