import { createInvitedMember, createOnboardedAccount } from "./accounts";
import { expect, test } from "./fixtures";
import { mailCount, waitForLink } from "./mailbox";
import { signIn } from "./ui";

/** What a visitor on a phone would have to scroll sideways: nothing. */
async function expectNoSidewaysScroll(page: import("@playwright/test").Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/**
 * Issue 38, deletion on request, at a desktop's width and a phone's: an admin types the
 * organization's name in Settings, confirms from the mailed link's page, and is signed out; a
 * member deletes their own account the same way, and the organization stays.
 */
for (const width of [1280, 390]) {
  test(`an admin deletes the organization, and a member their account, each from a mailed link (${width} px)`, async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
    const label = `Deleted Co ${width}`;
    const admin = await createOnboardedAccount(request, `deletion-${width}`, { companyName: label });
    const member = await createInvitedMember(request, admin, `deletion-member-${width}`);
    const base = process.env.E2E_BASE_URL;

    // The member first: their account goes, the organization stays.
    await signIn(page, member.token);
    await page.goto("/dashboard/settings?tab=profile");
    await expect(page.getByRole("heading", { name: "Delete organization" })).toHaveCount(0);
    let before = mailCount();
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Check your e-mail" })).toBeVisible();
    let link = await waitForLink(member.email, `${base}/confirm-deletion?token=`, before);
    await page.goto(link.slice(base?.length ?? 0));
    await expect(page.getByRole("heading", { name: "Confirm the deletion" })).toBeVisible();
    await page.getByRole("button", { name: "Delete for good" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Your account was deleted" })).toBeVisible();
    expect(
      (await request.get("/api/me", { headers: { authorization: `Bearer ${member.token}` } })).status(),
    ).toBe(401);

    // Then the admin deletes the organization.
    await signIn(page, admin.token);
    await page.goto("/dashboard/settings?tab=profile");
    const card = page.getByRole("form", { name: "Delete organization" });
    const submit = card.getByRole("button", { name: "Delete organization" });
    await expect(submit).toBeDisabled();
    await card.getByLabel(`Type ${label} to confirm`).fill("Something else");
    await expect(card.getByText("Type the organization's name exactly as it is shown")).toBeVisible();
    await card.getByLabel(`Type ${label} to confirm`).fill(label);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath(`deletion-${width}-settings.png`), fullPage: true });
    before = mailCount();
    await submit.click();
    await expect(page.getByRole("status").filter({ hasText: "Check your e-mail" })).toBeVisible();
    link = await waitForLink(admin.email, `${base}/confirm-deletion?token=`, before);
    await page.goto(link.slice(base?.length ?? 0));
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath(`deletion-${width}-confirm.png`) });
    await page.getByRole("button", { name: "Delete for good" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Your organization and everything in it were deleted" }),
    ).toBeVisible();
    await page.getByRole("link", { name: "Go to sign in" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    expect(
      (await request.get("/api/me", { headers: { authorization: `Bearer ${admin.token}` } })).status(),
    ).toBe(401);
  });
}
