import { type APIRequestContext, expect } from "@playwright/test";
import { normalizeWebsite } from "../../src/shared/website";
import { mailCount, uniqueEmail, waitForLink } from "./mailbox";

export const PASSWORD = "Sup3r-secret!";

/**
 * Signs up through the API and follows the mail's link through the API: a verified account. An
 * address at `emailDomain` proves control of that domain (CONTRACT §4).
 */
export async function createVerifiedAccount(request: APIRequestContext, label: string, emailDomain?: string) {
  const email = uniqueEmail(label, emailDomain);
  const before = mailCount();
  const signup = await request.post("/api/auth", { data: { email, password: PASSWORD, mode: "signup" } });
  expect(signup.status()).toBe(201);
  const link = await waitForLink(email, `${process.env.E2E_BASE_URL}/verify-email?token=`, before);
  const token = new URL(link).searchParams.get("token");
  const { signupSecret } = (await signup.json()) as { signupSecret: string };
  const verify = await request.post("/api/verify-email", { data: { token, signupSecret } });
  expect(verify.status()).toBe(200);
  const body = (await verify.json()) as { token: string };
  return { email, password: PASSWORD, token: body.token };
}

/**
 * A verified account that completed onboarding through the API: the admin of a new organization,
 * whose address at the organization's domain proves it.
 */
export async function createOnboardedAccount(
  request: APIRequestContext,
  label: string,
  company: Partial<{ companyName: string; website: string; description: string }> = {},
) {
  const slug = `${label}-${Math.floor(Math.random() * 1e9)}`.toLowerCase().replace(/[^a-z0-9-]/g, "");
  const domain = company.website ? normalizeWebsite(company.website) : `${slug}.example.org`;
  const account = await createVerifiedAccount(request, label, domain);
  const response = await request.post("/api/onboarding", {
    headers: { authorization: `Bearer ${account.token}` },
    data: {
      companyName: label.slice(0, 25),
      website: `https://${slug}.example.org`,
      description: `${label} builds software used in browser tests.`,
      transactionalEmailProvider: "postmark",
      marketingEmailProvider: "mailchimp",
      selectedCompetitors: [],
      selectedComplements: [],
      ...company,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { user } = (await response.json()) as { user: { organizationId: string } };
  return { ...account, organizationId: user.organizationId, domain };
}

/**
 * A verified account invited by `admin` that joins by signing in through the invitation's link,
 * as someone who already had an account does: a member of the admin's organization.
 */
export async function createInvitedMember(
  request: APIRequestContext,
  admin: { token: string },
  label: string,
) {
  const member = await createVerifiedAccount(request, label);
  const before = mailCount();
  const invite = await request.post("/api/team-members/invite", {
    headers: { authorization: `Bearer ${admin.token}` },
    data: { email: member.email },
  });
  expect(invite.status()).toBe(201);
  const link = await waitForLink(member.email, `${process.env.E2E_BASE_URL}/auth?`, before);
  const login = await request.post("/api/auth", {
    data: {
      email: member.email,
      password: PASSWORD,
      mode: "login",
      inviteToken: new URL(link).searchParams.get("invite"),
    },
  });
  expect(login.status()).toBe(200);
  return { ...member, token: ((await login.json()) as { token: string }).token };
}
