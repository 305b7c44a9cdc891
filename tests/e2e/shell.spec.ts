import type { Page } from "@playwright/test";
import { createOnboardedAccount } from "./accounts";
import { expect, test } from "./fixtures";

const NAV = [
  ["Overview", "/dashboard"],
  ["Buddies", "/dashboard/tools"],
  ["Marketing", "/dashboard/marketing"],
  ["Suggestions", "/dashboard/suggestions"],
  ["Block List", "/dashboard/competitors"],
  ["API Docs", "/dashboard/api-docs"],
  ["Settings", "/dashboard/settings"],
] as const;

async function signIn(page: Page, token: string) {
  await page.goto("/auth");
  await page.evaluate((value) => localStorage.setItem("token", value), token);
}

test("the shell renders every dashboard route with the seven sidebar entries", async ({
  page,
  request,
  consoleErrors,
}) => {
  // A tool page with an id no relationship has.
  consoleErrors.allowFailedRequest(404, "/api/relationships/some-id");
  const account = await createOnboardedAccount(request, "shell");
  await signIn(page, account.token);
  for (const path of [...NAV.map(([, href]) => href), "/dashboard/tools/some-id"]) {
    await page.goto(path);
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText(NAV.map(([name]) => name));
    for (const [name, href] of NAV) {
      await expect(nav.getByRole("link", { name })).toHaveAttribute("href", href);
    }
    await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
    // Every screen is built: none says it is not available.
    await expect(page.getByText("This page is not available yet")).toHaveCount(0);
  }
  await expect(page.getByText("Tool not found")).toBeVisible();
  await page.goto("/dashboard/competitors");
  await expect(page.getByRole("link", { name: "Block List" })).toHaveAttribute("aria-current", "page");
  // Signed-in and onboarded: /setup goes to /dashboard.
  await page.goto("/setup");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("on a phone the sidebar opens from the header toggle", async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const account = await createOnboardedAccount(request, "mobile");
  await signIn(page, account.token);
  await page.goto("/dashboard");
  await expect(page.getByTestId("sidebar")).toBeHidden();
  await page.getByTestId("sidebar-toggle").click();
  const drawer = page.locator("#mobile-navigation");
  await expect(drawer).toBeVisible();
  await drawer.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings$/);
  await expect(drawer).toBeHidden();
});

test("Logout from the shell ends the session", async ({ page, request }) => {
  const account = await createOnboardedAccount(request, "shell-logout");
  await signIn(page, account.token);
  await page.goto("/dashboard");
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByText("Logged out successfully")).toBeVisible();
  const me = await request.get("/api/me", { headers: { authorization: `Bearer ${account.token}` } });
  expect(me.status()).toBe(401);
});
