import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingAccounts, customerBindings, jobs, organizations } from "../../db/schema";
import {
  authHeader,
  createApiKey,
  createOrganization,
  onboardingForm,
  relate,
  STRONG_PASSWORD,
  signUpVerified,
  TEST_PUBLIC_URL,
  type TestApp,
} from "../../testing/app";
import { createDomainProofTestApp } from "../../testing/domain-proof";
import { linkFrom } from "../../testing/mail-receiver";

/**
 * Issue 25's pre-positioning attack, replayed step by step: a squatter prepares an organization
 * for a domain it does not control (a website change, an accomplice invited as admin, an API key,
 * a block list), waits for the real owner to prove the domain, then tries to take the company back.
 */

let t: TestApp;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ t, close } = await createDomainProofTestApp());
});
afterAll(() => close());

type Headers = Record<string, string>;
const uniqueEmail = (label: string, domain = "accomplice.test") =>
  `${label}-${crypto.randomUUID().slice(0, 8)}@${domain}`;

const team = async (headers: Headers) =>
  (await t.app.inject({ url: "/api/team-members", headers })).json() as {
    role: string;
    status: string;
    user: { email: string };
  }[];

/** The squatter's preparations on its own proven organization; returns what it holds. */
async function prepare(label: string) {
  const squatter = await createOrganization(t, label);
  const accomplice = uniqueEmail("accomplice");
  const invited = await t.app.inject({
    method: "POST",
    url: "/api/team-members/invite",
    headers: squatter.headers,
    payload: { email: accomplice, role: "admin" },
  });
  expect(invited.statusCode, invited.body).toBe(201);
  const mail = await t.mail.waitFor((m) => m.to === accomplice && m.subject.includes("invited you to join"));
  const inviteToken = new URL(linkFrom(mail, `${TEST_PUBLIC_URL}/auth?`)).searchParams.get("invite") ?? "";
  const { key } = await createApiKey(t, squatter, "squatter's key");
  // A competitor entry: it would hide the real company from everyone the squatter blocks.
  const blocked = await createOrganization(t, `${label}rival`);
  await relate(t, squatter, blocked.organizationId, "competitor");
  return { squatter, accomplice, inviteToken, key };
}

const onboardOwner = async (domain: string) => {
  const owner = await signUpVerified(t, `founder@${domain}`);
  const response = await t.app.inject({
    method: "POST",
    url: "/api/onboarding",
    headers: authHeader(owner.token),
    payload: onboardingForm("Victim Co", domain, { description: `The real company behind ${domain}.` }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return { ...owner, headers: authHeader(owner.token), organizationId: response.json().user.organizationId };
};

const acceptInvitation = (email: string, inviteToken: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth",
    payload: { email, password: STRONG_PASSWORD, mode: "signup", inviteToken },
  });

describe("the pre-positioning attack", () => {
  it("through a website change: the change waits, and the real owner gets an organization of their own", async () => {
    const { squatter, accomplice, inviteToken, key } = await prepare("squatnow");
    const moved = await t.app.inject({
      method: "PATCH",
      url: "/api/organization",
      headers: squatter.headers,
      payload: { name: "Victim Co", website: "https://victim-now.test" },
    });
    expect(moved.json()).toMatchObject({
      name: "squatnow",
      domain: "squatnow.example",
      pendingDomain: "victim-now.test",
    });

    const owner = await onboardOwner("victim-now.test");
    expect(owner.organizationId).not.toBe(squatter.organizationId);
    // The accomplice's invitation admits them to the squatter's organization, not the owner's.
    expect((await acceptInvitation(accomplice, inviteToken)).statusCode).toBe(201);
    expect((await team(owner.headers)).map((member) => member.user.email)).toEqual([owner.user.email]);
    // The squatter's key reaches nothing of the owner's: its ads and its leads are its own.
    const ads = await t.app.inject({ url: "/api/ads", headers: { "x-api-key": key } });
    expect(ads.statusCode).toBe(404);
    // The squatter can never complete the move: the domain is the owner's now.
    const status = (
      await t.app.inject({ url: "/api/organization/domain-verification", headers: squatter.headers })
    ).json();
    expect(status).toMatchObject({ domain: "victim-now.test", verified: false });
  });

  it("through an organization left unproven by legacy data: the owner takes it over clean", async () => {
    const { squatter, accomplice, inviteToken, key } = await prepare("squatold");
    await t.database.db
      .insert(billingAccounts)
      .values({ organizationId: squatter.organizationId, stripeCustomerId: `cus_squat_${Date.now()}` });
    const stripe = await t.app.inject({
      method: "PUT",
      url: "/api/integrations/stripe",
      headers: squatter.headers,
      payload: { webhookSecret: "whsec_squatterSigningSecret0123456" },
    });
    expect(stripe.statusCode).toBe(200);
    const hook = await t.app.inject({
      method: "POST",
      url: "/api/webhooks",
      headers: squatter.headers,
      payload: {
        url: "https://hooks.squatter.example/in",
        events: ["conversion.created", "relationship.created"],
      },
    });
    expect(hook.statusCode).toBe(201);
    await t.app.inject({
      method: "POST",
      url: `/api/webhooks/${hook.json().id}/test`,
      headers: squatter.headers,
    });
    await t.database.db.insert(customerBindings).values({
      organizationId: squatter.organizationId,
      customerId: "cus_squatters_customer",
      clickId: "x".repeat(40),
      sourceOrgId: squatter.organizationId,
    });
    // What the old website change left behind: the organization on a domain nobody proved, with
    // its members, invitation and key.
    await t.database.db
      .update(organizations)
      .set({
        domain: "victim-old.test",
        website: "https://victim-old.test",
        domainVerifiedAt: null,
        domainVerificationMethod: null,
      })
      .where(eq(organizations.id, squatter.organizationId));
    const keyWorks = await t.app.inject({ url: "/api/ads", headers: { "x-api-key": key } });
    expect(keyWorks.statusCode).not.toBe(401);

    const owner = await onboardOwner("victim-old.test");
    expect(owner.organizationId).toBe(squatter.organizationId);

    // The owner is its sole member and admin; the squatter's session has ended.
    expect(await team(owner.headers)).toEqual([
      expect.objectContaining({ role: "admin", status: "active", user: { email: owner.user.email } }),
    ]);
    expect((await t.app.inject({ url: "/api/me", headers: squatter.headers })).statusCode).toBe(401);
    // The old invitation is dead: registering through it joins nothing.
    const late = await acceptInvitation(accomplice, inviteToken);
    expect(late.statusCode).toBe(201);
    expect(late.json().user?.organizationId ?? null).toBeNull();
    expect(await team(owner.headers)).toHaveLength(1);
    // The old key is refused everywhere, on this instance at once.
    const ads = await t.app.inject({ url: "/api/ads", headers: { "x-api-key": key } });
    expect(ads.statusCode).toBe(401);
    expect(ads.json()).toEqual({ message: expect.any(String) });
    const conversion = await t.app.inject({
      method: "POST",
      url: "/api/marketing/conversion",
      headers: { "x-api-key": key },
      payload: { clickId: "x".repeat(40), type: "signup" },
    });
    expect(conversion.statusCode).toBe(401);
    expect((await t.app.inject({ url: "/api/api-keys", headers: owner.headers })).json()).toEqual([]);
    // Nothing the squatter set up remains: no block list, no billing account.
    const lists = (await t.app.inject({ url: "/api/relationships", headers: owner.headers })).json() as {
      type: string;
      targetOrg: { domain: string };
    }[];
    expect(lists.map((row) => row.targetOrg.domain)).not.toContain("squatoldrival.example");
    const billing = await t.database.db
      .select()
      .from(billingAccounts)
      .where(eq(billingAccounts.organizationId, squatter.organizationId));
    expect(billing).toEqual([]);
    // Nor their Stripe: its secret signs nothing for the owner, and their customers are unbound.
    expect(
      (await t.app.inject({ url: "/api/integrations/stripe", headers: owner.headers })).json().connected,
    ).toBe(false);
    const bound = await t.database.db
      .select()
      .from(customerBindings)
      .where(eq(customerBindings.organizationId, squatter.organizationId));
    expect(bound).toEqual([]);
    // Nor their webhook endpoints: the owner's events never reach their servers.
    expect((await t.app.inject({ url: "/api/webhooks", headers: owner.headers })).json()).toEqual([]);
    expect(await t.database.db.select().from(jobs).where(eq(jobs.partitionKey, hook.json().id))).toEqual([]);
  });
});
