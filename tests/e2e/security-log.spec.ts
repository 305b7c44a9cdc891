import type { Page } from "@playwright/test";
import { createInvitedMember, createOnboardedAccount } from "./accounts";
import { expect, test } from "./fixtures";
import { signIn, toast } from "./ui";

/** The page is no wider than the window: nothing scrolls sideways. */
async function expectNoHorizontalOverflow(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

test("an admin's new API key is in the security log, with who made it and from where; members have no such tab", async ({
  page,
  browser,
  request,
}, testInfo) => {
  const admin = await createOnboardedAccount(request, "seclog");
  await signIn(page, admin.token);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/dashboard/settings?tab=api");

  await page.getByRole("button", { name: "Create Key" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Key Name").fill("Security log key");
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(toast(page, "API key saved successfully")).toBeVisible();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();

  // The last tab, opened like any other; the address keeps it.
  const tabs = page.getByRole("tab");
  await expect(tabs.last()).toHaveText("Security log");
  await tabs.last().click();
  await expect(page).toHaveURL(/[?&]tab=security-log/);
  const entry = page.getByTestId("security-log-entry").filter({ hasText: "API key created" });
  await expect(entry).toHaveCount(1);
  await expect(entry.getByTestId("security-log-target")).toHaveText("Security log key");
  await expect(entry.getByTestId("security-log-actor")).toHaveText(admin.email);
  await expect(entry.getByTestId("security-log-address")).not.toBeEmpty();
  // Newest first: the key comes before the onboarding's proof of the domain.
  await expect(page.getByTestId("security-log-action").first()).toHaveText("API key created");
  await expect(page.getByTestId("security-log-entry").filter({ hasText: "Domain proved" })).toContainText(
    admin.domain,
  );
  await page.screenshot({ path: testInfo.outputPath("security-log-1280.png"), fullPage: true });

  // The password-changed mail's link, on a phone: the same entries, stacked.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard/settings?tab=security-log");
  await expect(page.getByRole("tab", { name: "Security log", selected: true })).toBeVisible();
  await expect(entry.getByTestId("security-log-target")).toHaveText("Security log key");
  const box = await entry.boundingBox();
  expect(box?.width).toBeLessThanOrEqual(390);
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: testInfo.outputPath("security-log-390.png"), fullPage: true });

  // A member, invited and signed in through the link: no tab, and the link opens the profile.
  const member = await createInvitedMember(request, admin, "seclogmember");
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, member.token);
  for (const width of [1280, 390]) {
    await memberPage.setViewportSize({ width, height: 844 });
    await memberPage.goto("/dashboard/settings?tab=security-log");
    await expect(memberPage.getByRole("tab", { name: "Profile", selected: true })).toBeVisible();
    await expect(memberPage.getByRole("tab", { name: "Notifications" })).toBeVisible();
    await expect(memberPage.getByRole("tab", { name: "Security log" })).toHaveCount(0);
  }
  await memberContext.close();

  // The member's joining is in the admin's log, by the member.
  await page.reload();
  const joined = page.getByTestId("security-log-entry").filter({ hasText: "Invitation accepted" });
  await expect(joined.getByTestId("security-log-actor")).toHaveText(member.email);
});
