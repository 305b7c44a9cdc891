import { createOnboardedAccount } from "./accounts";
import { expect, test } from "./fixtures";
import { signIn } from "./ui";

test("Settings → Install shows both scripts for this organization, served from PUBLIC_URL, with Copy Script", async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const baseUrl = process.env.E2E_BASE_URL ?? "";
  const account = await createOnboardedAccount(request, "install");
  await signIn(page, account.token);
  await page.goto("/dashboard/settings?tab=install");
  await expect(page.getByRole("tab", { name: "Install", selected: true })).toBeVisible();

  const clickTag = `<script src="${baseUrl}/api/tracking/click.js" data-org="${account.organizationId}" async></script>`;
  const conversionTag = `<script src="${baseUrl}/api/tracking/conversion.js" data-org="${account.organizationId}" data-type="signup" async></script>`;
  const click = page.getByTestId("click-script");
  const conversion = page.getByTestId("conversion-script");
  await expect(click.getByLabel("Click tracking script")).toHaveText(clickTag);
  await expect(click).toContainText("all of your landing pages");
  await expect(click).toContainText("Click ids expire after 30 days.");
  await expect(conversion.getByLabel("Conversion tracking script")).toHaveText(conversionTag);
  await expect(conversion).toContainText("conversion confirmation pages");
  // The pixel records leads only (CONTRACT §5): a type from the page, money from the server.
  await expect(conversion.getByLabel("Conversion call")).toHaveText("window.buddy.conversion('signup');");
  await expect(conversion).toContainText("It records leads only");
  await expect(conversion.getByLabel("Server conversion request")).toContainText(
    `curl -X POST ${baseUrl}/api/marketing/conversion`,
  );

  await conversion.getByRole("button", { name: "Copy Script" }).click();
  await expect(conversion.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(conversionTag);
  await expect(conversion.getByRole("button", { name: "Copy Script" })).toBeVisible({ timeout: 4000 });
  await click.getByRole("button", { name: "Copy Script" }).click();
  await expect(click.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(clickTag);

  // What the tags load is there.
  for (const script of ["click.js", "conversion.js"]) {
    const response = await request.get(`/api/tracking/${script}`);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("javascript");
  }
});

test("the install scripts load from PUBLIC_URL even when Buddy is opened at another address", async ({
  page,
  request,
}) => {
  const publicUrl = process.env.E2E_BASE_URL ?? "";
  // The same server, reached under another name than its PUBLIC_URL (as behind a proxy).
  const otherAddress = publicUrl.replace("127.0.0.1", "localhost");
  expect(otherAddress).not.toBe(publicUrl);
  const account = await createOnboardedAccount(request, "installhost");
  await page.goto(`${otherAddress}/auth`);
  await page.evaluate((value) => localStorage.setItem("token", value), account.token);
  await page.goto(`${otherAddress}/dashboard/settings?tab=install`);

  await expect(page.getByTestId("click-script").getByLabel("Click tracking script")).toHaveText(
    `<script src="${publicUrl}/api/tracking/click.js" data-org="${account.organizationId}" async></script>`,
  );
  await expect(page.getByTestId("conversion-script").getByLabel("Server conversion request")).toContainText(
    `curl -X POST ${publicUrl}/api/marketing/conversion`,
  );
});
