import { DOMAIN_MESSAGES } from "@shared/domain-verification";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizations } from "../../db/schema";
import { authHeader, createTestApp, onboardingForm, signUpVerified, type TestApp } from "../../testing/app";

// Proof (a) through onboarding: an address proves the domain its mailbox is on, never a parent.
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function verifiedUser(email: string) {
  const { token } = await signUpVerified(t, email);
  return authHeader(token);
}

const onboard = (headers: Record<string, string>, website: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/onboarding",
    headers,
    payload: onboardingForm("Mailbox Co", website),
  });

async function organizationAt(domain: string) {
  const [row] = await t.database.db.select().from(organizations).where(eq(organizations.domain, domain));
  return row;
}

/** 202: nothing owned, the form waits as a claim on `domain` for the tag or the TXT record. */
function expectClaim(response: Awaited<ReturnType<typeof onboard>>, domain: string) {
  expect(response.statusCode, response.body).toBe(202);
  expect(response.json()).toEqual({
    message: DOMAIN_MESSAGES.claimOpened(domain),
    user: expect.objectContaining({
      organizationId: null,
      role: null,
      hasCompletedOnboarding: false,
      domainClaim: { domain, token: expect.any(String) },
    }),
  });
}

describe("onboarding with a verified address on a subdomain", () => {
  it("a helpdesk vendor's mailbox handed to a trial user does not make them the vendor's admin", async () => {
    const trialUser = await verifiedUser("support@acme-help.zendesk-like.test");
    expectClaim(await onboard(trialUser, "https://www.zendesk-like.test/"), "zendesk-like.test");
    expect(await organizationAt("zendesk-like.test")).toBeUndefined();
  });

  it("an address on eu.northwind.test proves eu.northwind.test, and only a claim on northwind.test", async () => {
    const ceo = await verifiedUser("ceo@eu.northwind.test");
    expectClaim(await onboard(ceo, "https://northwind.test"), "northwind.test");
    expect(await organizationAt("northwind.test")).toBeUndefined();

    const owned = await onboard(ceo, "https://eu.northwind.test/about");
    expect(owned.statusCode, owned.body).toBe(201);
    expect(owned.json().user).toMatchObject({
      role: "admin",
      hasCompletedOnboarding: true,
      canApproveMembers: true,
    });
    expect(owned.json().user.domainClaim).toBeUndefined();
    expect(await organizationAt("eu.northwind.test")).toMatchObject({ domainVerificationMethod: "email" });
  });
});
