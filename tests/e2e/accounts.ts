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
