import { DOMAIN_MESSAGES } from "@shared/domain-verification";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizations } from "../../db/schema";
import {
  addMember,
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

describe("an organization whose domain is not proven", () => {
  it("loses its badge, ads and approvals on a website it has not proven, and gets them back by proving it", async () => {
    const mover = await createOrganization(t, "movingco");
    // A second admin whose address (at example.com) proves nothing about movingco.example.
    const coAdmin = await addMember(t, mover.organizationId, "admin");
    const partner = await createOrganization(t, "moverfan");
    const relation = await t.app.inject({
      method: "POST",
      url: "/api/relationships",
      headers: partner.headers,
      payload: { organizationId: mover.organizationId, type: "complement" },
    });
    expect(relation.statusCode).toBe(201);
    const { key } = await createApiKey(t, partner);
    const served = async () => {
      const response = await t.app.inject({ url: "/api/ads?limit=5", headers: { "x-api-key": key } });
      if (response.statusCode === 404) return [];
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().ads as { name: string }[]).map((ad) => ad.name);
    };
    const ad = await collateral(mover.headers, "https://movingco.example/go", "active");
    expect(ad.statusCode, ad.body).toBe(201);
    // Served, and now in the eligible-ads cache.
    expect(await served()).toEqual(["Ad active"]);
    const list = await t.app.inject({
      url: `/api/marketing/collateral?organizationId=${mover.organizationId}`,
      headers: partner.headers,
    });
    const tracked: string = list.json()[0].trackedUrl;
    const follow = () => t.app.inject({ url: tracked.slice(tracked.indexOf("/api/")), headers: BROWSER });
    expect((await follow()).statusCode).toBe(302);

    // A colleague at the domain asks to join.
    const colleague = await signUpVerified(t, "colleague@movingco.example");
    const asked = await t.app.inject({
      method: "POST",
      url: "/api/onboarding",
      headers: authHeader(colleague.token),
      payload: onboardingForm("Moving Co", "movingco.example", {
        description: "Moving Co moves things from one place to another.",
      }),
    });
    expect(asked.statusCode).toBe(202);
    const team = (await t.app.inject({ url: "/api/team-members", headers: mover.headers })).json();
    const request = team.find(
      (m: { user: { email: string } }) => m.user.email === "colleague@movingco.example",
    );
    const approve = (headers: Headers) =>
      t.app.inject({ method: "POST", url: `/api/team-members/${request.id}/approve`, headers });

    const tokenBefore = (await verification(mover.headers)).json().token;
    expect((await verification(mover.headers)).json()).toMatchObject({
      domain: "movingco.example",
      verified: true,
      method: "email",
    });

    // Both caches warm just before the move: the eligible ads and the followed link's host.
    expect(await served()).toEqual(["Ad active"]);
    expect((await follow()).statusCode).toBe(302);
    // Away to a domain nobody proved, and back: the co-admin's address proves neither.
    expect((await moveWebsite(coAdmin.headers, "https://moved-co.test")).json()).toMatchObject({
      domain: "moved-co.test",
      domainVerified: false,
      isPlatformUser: false,
    });
    // Seen at once, through the eligible-ads cache and the followed link's host cache.
    expect(await served()).toEqual([]);
    expect((await follow()).statusCode).toBe(400);
    const tokenMoved = (await verification(coAdmin.headers)).json().token;
    expect(tokenMoved).not.toBe(tokenBefore);

    const back = await moveWebsite(coAdmin.headers, "https://www.movingco.example/");
    expect(back.json()).toMatchObject({
      domain: "movingco.example",
      domainVerified: false,
      isPlatformUser: false,
    });
    const status = (await verification(coAdmin.headers)).json();
    expect(status).toEqual({
      domain: "movingco.example",
      token: expect.any(String),
      verified: false,
      method: null,
    });
    expect([tokenBefore, tokenMoved]).not.toContain(status.token);

    // Its ad points at its own site again, but an organization nobody proved publishes nothing.
    expect(await served()).toEqual([]);
    expect((await follow()).statusCode).toBe(302);
    const partnerView = (
      await t.app.inject({ url: `/api/relationships/${relation.json().id}`, headers: partner.headers })
    ).json();
    expect(partnerView.targetOrg).toMatchObject({ domain: "movingco.example", isPlatformUser: false });
    const refused = await collateral(coAdmin.headers, "https://movingco.example/new", "active");
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: DOMAIN_MESSAGES.publishNeedsProof("movingco.example") });
    const draft = await collateral(coAdmin.headers, "https://movingco.example/new", "draft");
    expect(draft.statusCode).toBe(201);
    const activate = () =>
      t.app.inject({
        method: "PATCH",
        url: `/api/marketing/collateral/${draft.json().id}`,
        headers: coAdmin.headers,
        payload: { status: "active" },
      });
    expect((await activate()).statusCode).toBe(403);
    const offSite = await collateral(coAdmin.headers, "https://moved-co.test/go", "draft");
    expect(offSite.json()).toEqual({ message: "Call to action URL must be on movingco.example" });
    const refusedApproval = await approve(coAdmin.headers);
    expect(refusedApproval.statusCode).toBe(403);
    expect(refusedApproval.json()).toEqual({ message: DOMAIN_MESSAGES.needed("movingco.example") });
    const me = (await t.app.inject({ url: "/api/me", headers: coAdmin.headers })).json().user;
    expect(me).toMatchObject({ role: "admin", canApproveMembers: false });

    // "Check again" before and after the tag is published.
    const notFound = await checkAgain(coAdmin.headers);
    expect(notFound.statusCode).toBe(200);
    expect(notFound.json()).toMatchObject({
      verified: false,
      message: DOMAIN_MESSAGES.notFound("movingco.example"),
    });
    const tooSoon = await checkAgain(coAdmin.headers);
    expect(tooSoon.statusCode).toBe(429);
    expect(Number(tooSoon.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(tooSoon.headers["retry-after"])).toBeLessThanOrEqual(3);

    sites.publishTag("movingco.example", status.token);
    await allowCheckAgain(mover.organizationId);
    const verified = await checkAgain(coAdmin.headers);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({
      domain: "movingco.example",
      token: status.token,
      verified: true,
      method: "meta_tag",
      message: DOMAIN_MESSAGES.verified("movingco.example"),
    });
    // Proven: a check needs no spacing and fetches nothing.
    const fetched = sites.asked.length;
    expect((await checkAgain(coAdmin.headers)).json()).toMatchObject({ verified: true });
    expect(sites.asked.length).toBe(fetched);

    expect(await organizationOf(coAdmin.headers)).toMatchObject({
      domainVerified: true,
      isPlatformUser: true,
    });
    expect(await served()).toEqual(["Ad active"]);
    expect((await activate()).statusCode).toBe(200);
    expect((await served()).sort()).toEqual(["Ad active", "Ad draft"]);
    expect((await approve(coAdmin.headers)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ url: "/api/me", headers: coAdmin.headers })).json().user.canApproveMembers,
    ).toBe(true);
  });

  it("shows partners none of its ads and invites no one until the new website is proven", async () => {
    const org = await createOrganization(t, "quietco");
    const partner = await createOrganization(t, "quietfan");
    await t.app.inject({
      method: "POST",
      url: "/api/relationships",
      headers: partner.headers,
      payload: { organizationId: org.organizationId, type: "complement" },
    });
    expect((await collateral(org.headers, "https://quietco.example/go", "active")).statusCode).toBe(201);
    const partnersView = async () =>
      (
        await t.app.inject({
          url: `/api/marketing/collateral?organizationId=${org.organizationId}`,
          headers: partner.headers,
        })
      ).json() as { name: string }[];
    expect((await partnersView()).map((item) => item.name)).toEqual(["Ad active"]);
    const invite = () =>
      t.app.inject({
        method: "POST",
        url: "/api/team-members/invite",
        headers: org.headers,
        payload: { email: `invitee-${crypto.randomUUID().slice(0, 8)}@quiet.test`, role: "member" },
      });

    // Another admin, whose address proves nothing, moves the website.
    const coAdmin = await addMember(t, org.organizationId, "admin");
    expect((await moveWebsite(coAdmin.headers, "quiet-elsewhere.test")).json()).toMatchObject({
      domainVerified: false,
    });
    expect(await partnersView()).toEqual([]);
    const refused = await invite();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: DOMAIN_MESSAGES.needed("quiet-elsewhere.test") });

    // Back on the proven domain (the first admin's address proves it): both return.
    expect((await moveWebsite(org.headers, "quietco.example")).json()).toMatchObject({
      domainVerified: true,
    });
    expect((await partnersView()).map((item) => item.name)).toEqual(["Ad active"]);
    expect((await invite()).statusCode).toBe(201);
  });

  it("stays proven when the acting admin's own address proves the new website", async () => {
    const org = await createOrganization(t, "selfproven");
    expect((await moveWebsite(org.headers, "elsewhere-co.test")).json()).toMatchObject({
      domainVerified: false,
    });
    const back = await moveWebsite(org.headers, "selfproven.example");
    expect(back.json()).toMatchObject({
      domain: "selfproven.example",
      domainVerified: true,
      isPlatformUser: true,
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
  });

  it("is taken over by the domain's proven owner, and its admins then wait for approval", async () => {
    const squatter = await createOrganization(t, "squatco");
    await moveWebsite(squatter.headers, "owned-elsewhere.test");
    const owner = await signUpVerified(t, "founder@owned-elsewhere.test");
    const onboarded = await t.app.inject({
      method: "POST",
      url: "/api/onboarding",
      headers: authHeader(owner.token),
      payload: onboardingForm("Owned Elsewhere", "owned-elsewhere.test", {
        description: "The real company that owns owned-elsewhere.test.",
      }),
    });
    expect(onboarded.statusCode, onboarded.body).toBe(201);
    expect(onboarded.json().user).toMatchObject({ organizationId: squatter.organizationId, role: "admin" });
    const former = (await t.app.inject({ url: "/api/me", headers: squatter.headers })).json().user;
    expect(former).toMatchObject({ organizationId: null, pendingOrganization: { name: "Owned Elsewhere" } });
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
