import { createOnboardedAccount } from "./accounts";
import { expect, test } from "./fixtures";
import { signIn, toast } from "./ui";

test("an API key is created, shown once with Copy, listed masked, works on the Ads API and stops at once when revoked", async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const account = await createOnboardedAccount(request, "api-keys");
  await signIn(page, account.token);
  await page.goto("/dashboard/settings?tab=api");
  await expect(page.getByRole("tab", { name: "API Keys", selected: true })).toBeVisible();
  await expect(page.getByText("No API keys yet. Create one to get started.")).toBeVisible();

  await page.getByRole("button", { name: "Create Key" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("Key Name")).toHaveAttribute("placeholder", "e.g. Production API Key");
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(dialog.getByText("Key name is required")).toBeVisible();

  await dialog.getByLabel("Key Name").fill("Production API Key");
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(toast(page, "API key saved successfully")).toBeVisible();
  const fullKey = (await dialog.getByTestId("created-api-key").textContent())?.trim() ?? "";
  expect(fullKey.length).toBeGreaterThanOrEqual(32);

  await dialog.getByRole("button", { name: "Copy API Key" }).click();
  await expect(dialog.getByRole("button", { name: "Copied!" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(fullKey);
  // SPEC §9: the feedback resets after 2 seconds.
  await expect(dialog.getByRole("button", { name: "Copy API Key" })).toBeVisible({ timeout: 4000 });

  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  // Shown once: the list has it masked, the full key is nowhere on the page.
  const row = page.getByTestId("api-key-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Production API Key");
  const masked = (await row.getByTestId("api-key-masked").textContent()) ?? "";
  expect(masked).not.toBe(fullKey);
  expect(masked.endsWith(fullKey.slice(-4))).toBe(true);
  await expect(row).toContainText("Last used Never");
  await expect(page.getByText(fullKey)).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("api-key-row")).toContainText("Production API Key");

  // The key is accepted: this organization has no Buddy ads yet (404), but no longer a 401.
  const withKey = { headers: { "x-api-key": fullKey } };
  expect((await request.get("/api/ads", { headers: { "x-api-key": "bk_not_a_key" } })).status()).toBe(401);
  expect((await request.get("/api/ads")).status()).toBe(401);
  const accepted = await request.get("/api/ads", withKey);
  expect(accepted.status(), await accepted.text()).toBe(404);
  await page.reload();
  await expect(page.getByTestId("api-key-row")).not.toContainText("Last used Never");

  await page.getByTestId("api-key-row").getByRole("button", { name: "Revoke" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(
    confirm.getByText("Are you sure you want to revoke this API key? This action cannot be undone."),
  ).toBeVisible();
  await confirm.getByRole("button", { name: "Revoke Key" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText("No API keys yet. Create one to get started.")).toBeVisible();
  expect((await request.get("/api/ads", withKey)).status()).toBe(401);
});
