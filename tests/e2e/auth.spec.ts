import { createVerifiedAccount, PASSWORD } from "./accounts";
import { expect, test } from "./fixtures";
import { mailCount, uniqueEmail, waitForLink } from "./mailbox";

test("register with the live checklist, verify from the mail and land on /setup signed in", async ({
  page,
  consoleErrors,
}) => {
  // The mailed link, followed a second time, is refused.
  consoleErrors.allowFailedRequest(400, "/api/verify-email");
  const email = uniqueEmail("register");
  await page.goto("/auth?tab=register");
  await expect(page.getByText("Welcome to Buddy")).toBeVisible();
  await expect(page.getByText("Enter your email to sign in to your account")).toBeVisible();

  const checklist = page.getByTestId("password-checklist");
  const rule = (id: string) => checklist.locator(`[data-rule="${id}"]`);
  const password = page.getByLabel("Password", { exact: true });
  await expect(rule("length")).toHaveAttribute("data-met", "false");
  await password.fill("abc");
  await expect(rule("lowercase")).toHaveAttribute("data-met", "true");
  await expect(rule("uppercase")).toHaveAttribute("data-met", "false");
  await expect(rule("length")).toHaveAttribute("data-met", "false");
  await password.fill("abcDEF12");
  await expect(rule("uppercase")).toHaveAttribute("data-met", "true");
  await expect(rule("number")).toHaveAttribute("data-met", "true");
  await expect(rule("length")).toHaveAttribute("data-met", "true");
  await expect(rule("special")).toHaveAttribute("data-met", "false");
  // Met rules are green, unmet red.
  const colour = (id: string) => rule(id).evaluate((el) => getComputedStyle(el).color);
  expect(await colour("number")).not.toBe(await colour("special"));
  await password.fill(PASSWORD);
  for (const id of ["length", "uppercase", "lowercase", "number", "special"]) {
    await expect(rule(id)).toHaveAttribute("data-met", "true");
  }

  const before = mailCount();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(
    page.getByText("Registration successful! Please check your email to verify your account."),
  ).toBeVisible();
  await expect(page.getByText("Registration successful", { exact: true })).toBeVisible();

  const link = await waitForLink(email, `${process.env.E2E_BASE_URL}/verify-email?token=`, before);
  await page.goto(link);
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByText("Email verified successfully")).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeTruthy();

  // The link is single-use. Without the sign-up's secret the page asks before sending it.
  await page.evaluate(() => localStorage.clear());
  await page.goto(link);
  await page.getByRole("button", { name: "Verify my email address" }).click();
  await expect(page.getByText("Invalid or expired verification token")).toBeVisible();
  await page.getByRole("button", { name: "Return to Login" }).click();
  await expect(page).toHaveURL(/\/auth/);
});

test("an unverified account cannot sign in", async ({ page, request, consoleErrors }) => {
  consoleErrors.allowFailedRequest(403, "/api/auth");
  const email = uniqueEmail("unverified");
  await request.post("/api/auth", { data: { email, password: PASSWORD, mode: "signup" } });
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(/verify your email address/)).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);
});

test("sign in, sign out, and a wrong password shows the server message", async ({
  page,
  request,
  consoleErrors,
}) => {
  consoleErrors.allowFailedRequest(401, "/api/auth");
  const account = await createVerifiedAccount(request, "login");
  await page.goto("/auth");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill("Wrong-pass1!");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Invalid email or password")).toBeVisible();

  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Login successful")).toBeVisible();
  await expect(page).toHaveURL(/\/setup$/);

  const sessionToken = await page.evaluate(() => localStorage.getItem("token"));
  expect(sessionToken).toBeTruthy();
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/auth/);
  await expect(page.getByText("Logged out successfully")).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
  // The token was revoked on the server, not just forgotten by the browser.
  const me = await request.get("/api/me", { headers: { authorization: `Bearer ${sessionToken}` } });
  expect(me.status()).toBe(401);
});

test("forgot password → mail → reset → sign in with the new password", async ({ page, request }) => {
  const account = await createVerifiedAccount(request, "reset");
  await page.goto("/auth");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();

  const before = mailCount();
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(
    page.getByText(
      "Check your email for a link to reset your password. If it doesn't appear within a few minutes, check your spam folder.",
    ),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Return to login" })).toBeVisible();
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("button", { name: "Send reset link" })).toBeVisible();

  const link = await waitForLink(account.email, `${process.env.E2E_BASE_URL}/reset-password?token=`, before);
  await page.goto(link);
  await page.getByLabel("New Password").fill("new-password-1");
  await page.getByLabel("Confirm Password").fill("new-password-2");
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await page.getByLabel("Confirm Password").fill("new-password-1");
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByText("Password reset successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/auth/, { timeout: 5_000 });

  // The reset ended the earlier session.
  const me = await request.get("/api/me", { headers: { authorization: `Bearer ${account.token}` } });
  expect(me.status()).toBe(401);

  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill("new-password-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/setup$/);
});

test("reset and verify pages without a token say so", async ({ page }) => {
  await page.goto("/reset-password");
  await expect(page.getByText("No reset token found")).toBeVisible();
  await page.goto("/verify-email");
  await expect(page.getByText("No verification token found")).toBeVisible();
});

test("switching tabs replaces the address and resets the form", async ({ page }) => {
  await page.goto("/auth");
  const historyLength = await page.evaluate(() => history.length);
  await page.getByLabel("Email").fill("someone@example.com");
  await page.getByRole("tab", { name: "Register" }).click();
  await expect(page).toHaveURL(/tab=register/);
  await expect(page.getByLabel("Email")).toHaveValue("");
  await expect(page.getByRole("button", { name: "Sign up" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Forgot your password?" })).toHaveCount(0);
  // Replaced, not pushed: no new history entry.
  expect(await page.evaluate(() => history.length)).toBe(historyLength);
});

test("a sign-up by someone else: a scanner changes nothing, the owner verifies, chooses a password, and the other is refused", async ({
  page,
  browser,
  request,
}) => {
  const email = uniqueEmail("pre-registered");
  const before = mailCount();
  // Someone who does not hold the mailbox signs up with it, from their own browser.
  const attacker = await request.post("/api/auth", {
    data: { email, password: "Attacker-pass1!", mode: "signup" },
  });
  expect(attacker.status()).toBe(201);
  const link = await waitForLink(email, `${process.env.E2E_BASE_URL}/verify-email?token=`, before);

  // A mail scanner fetches the link, and one that runs pages opens it: neither verifies anything.
  expect((await request.get(link)).status()).toBe(200);
  const scanner = await browser.newContext();
  const scannerPage = await scanner.newPage();
  const verifications: string[] = [];
  scannerPage.on("request", (r) => {
    if (r.url().includes("/api/verify-email")) verifications.push(r.url());
  });
  await scannerPage.goto(link);
  await expect(scannerPage.getByRole("button", { name: "Verify my email address" })).toBeVisible();
  await scannerPage.waitForTimeout(500);
  expect(verifications).toEqual([]);
  await scanner.close();

  // The owner opens the mail on a phone that never signed up.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(link);
  await expect(page.getByText("Email Verification")).toBeVisible();
  await expect(page.getByText("This browser didn't sign up for this account.")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("verify-confirm-390.png") });
  await page.getByRole("button", { name: "Verify my email address" }).click();
  await expect(page.getByText("Email verified successfully")).toBeVisible();
  const form = page.getByRole("form", { name: "Choose a password" });
  await expect(form).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("verify-choose-password-390.png") });
  await form.getByLabel("New Password").fill("Owner-chosen1!");
  await form.getByLabel("Confirm Password").fill("Owner-chosen1!");
  await form.getByRole("button", { name: "Set password" }).click();
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByText("Password saved")).toBeVisible();

  // The password the other person chose never works; the owner's does.
  const login = (password: string) => request.post("/api/auth", { data: { email, password, mode: "login" } });
  expect((await login("Attacker-pass1!")).status()).toBe(401);
  expect((await login("Owner-chosen1!")).status()).toBe(200);
});
