import { type APIRequestContext, expect } from "@playwright/test";
import { mailCount, uniqueEmail, waitForLink } from "./mailbox";

export const PASSWORD = "Sup3r-secret!";

/** Signs up through the API and follows the mail's link through the API: a verified account. */
export async function createVerifiedAccount(request: APIRequestContext, label: string) {
  const email = uniqueEmail(label);
  const before = mailCount();
  const signup = await request.post("/api/auth", { data: { email, password: PASSWORD, mode: "signup" } });
  expect(signup.status()).toBe(201);
  const link = await waitForLink(email, `${process.env.E2E_BASE_URL}/verify-email?token=`, before);
  const token = new URL(link).searchParams.get("token");
  const verify = await request.post("/api/verify-email", { data: { token } });
  expect(verify.status()).toBe(200);
  const body = (await verify.json()) as { token: string };
  return { email, password: PASSWORD, token: body.token };
}

/** A verified account that completed onboarding through the API: the admin of a new organization. */
export async function createOnboardedAccount(
  request: APIRequestContext,
  label: string,
  company: Partial<{ companyName: string; website: string; description: string }> = {},
) {
  const account = await createVerifiedAccount(request, label);
  const slug = `${label}-${Math.floor(Math.random() * 1e9)}`.toLowerCase().replace(/[^a-z0-9-]/g, "");
  const response = await request.post("/api/onboarding", {
    headers: { authorization: `Bearer ${account.token}` },
    data: {
      companyName: label.slice(0, 25),
      website: `https://${slug}.example.com`,
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
  return { ...account, organizationId: user.organizationId, domain: `${slug}.example.com` };
}
