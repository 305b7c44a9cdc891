import type { Page } from "@playwright/test";
import { createVerifiedAccount } from "./accounts";
import { expect, test } from "./fixtures";

async function storeToken(page: Page, token: string) {
  await page.goto("/auth");
  await page.evaluate((value) => localStorage.setItem("token", value), token);
}

test("without a token every private route goes to /auth", async ({ page }) => {
  for (const path of ["/dashboard", "/dashboard/tools", "/setup", "/dashboard/settings?tab=team"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/auth$/);
  }
});

test("unknown paths fall back to /dashboard (and then to /auth without a session)", async ({
  page,
  request,
}) => {
  await page.goto("/no/such/page");
  await expect(page).toHaveURL(/\/auth$/);
  const account = await createVerifiedAccount(request, "unknown-path");
  await storeToken(page, account.token);
  await page.goto("/no/such/page");
  // Signed in but not onboarded: /dashboard sends on to /setup.
  await expect(page).toHaveURL(/\/setup$/);
});

test("a token with no user is cleared and the user sent to /auth", async ({ page, consoleErrors }) => {
  consoleErrors.allowFailedRequest(401, "/api/me");
  await storeToken(page, "not-a-real-token");
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/auth$/);
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
});

test("a token whose user cannot be fetched is kept, told once, and the user fetched again on request", async ({
  page,
  request,
  consoleErrors,
}) => {
  consoleErrors.allowFailedRequest(502, "/api/me");
  const account = await createVerifiedAccount(request, "me-502");
  let meCalls = 0;
  await page.route("**/api/me", (route) => {
    meCalls += 1;
    return meCalls === 1 ? route.fulfill({ status: 502, body: "" }) : route.continue();
  });
  await storeToken(page, account.token);
  await page.goto("/setup");
  const alert = page.getByRole("alert");
  await expect(alert.getByText("Failed to fetch user")).toBeVisible();
  // The alert's title and one notice.
  await expect(page.getByText("Failed to fetch user")).toHaveCount(2);
  await expect(page).toHaveURL(/\/setup$/);
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBe(account.token);
  expect(meCalls).toBe(1);

  await alert.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { name: "Tell us about your company" })).toBeVisible();
  expect(meCalls).toBe(2);
});

test("a reload while the user is being fetched keeps the session", async ({ page, request }) => {
  const account = await createVerifiedAccount(request, "me-reload");
  let held = 0;
  await page.route("**/api/me", async (route) => {
    held += 1;
    // The first fetch hangs until the reload cuts it.
    if (held === 1) return new Promise<void>(() => {});
    return route.continue();
  });
  await storeToken(page, account.token);
  await page.goto("/setup", { waitUntil: "commit" });
  await expect.poll(() => held).toBe(1);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Tell us about your company" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBe(account.token);
});

test("a signed-in user who has not finished onboarding is sent to /setup and kept off /auth", async ({
  page,
  request,
}) => {
  const account = await createVerifiedAccount(request, "guard");
  await storeToken(page, account.token);
  await page.goto("/dashboard/marketing");
  await expect(page).toHaveURL(/\/setup$/);
  await page.goto("/auth");
  await expect(page).not.toHaveURL(/\/auth/);
  await expect(page).toHaveURL(/\/setup$/);
});

test("the current-user query does not run on the public routes", async ({ page, request, consoleErrors }) => {
  consoleErrors.allowFailedRequest(400, "/api/verify-email");
  const account = await createVerifiedAccount(request, "public-routes");
  const meCalls: string[] = [];
  page.on("request", (req) => {
    if (new URL(req.url()).pathname === "/api/me") meCalls.push(page.url());
  });
  await page.goto("/verify-email?token=bogus");
  // This browser never signed up: the page asks before it verifies (CONTRACT §3).
  await page.getByRole("button", { name: "Verify my email address" }).click();
  await expect(page.getByText("Invalid or expired verification token")).toBeVisible();
  await page.evaluate((value) => localStorage.setItem("token", value), account.token);
  for (const path of ["/forgot-password", "/reset-password?token=bogus", "/verify-email"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  await page.evaluate(() => localStorage.removeItem("token"));
  await page.goto("/auth");
  await page.waitForLoadState("networkidle");
  expect(meCalls).toEqual([]);
  // …while a private route does ask.
  await page.evaluate((value) => localStorage.setItem("token", value), account.token);
  await page.goto("/setup");
  await expect.poll(() => meCalls.length).toBeGreaterThan(0);
});
