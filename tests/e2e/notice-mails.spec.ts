import { createOnboardedAccount } from "./accounts";
import { expect, test } from "./fixtures";
import { mailCount, waitForLink } from "./mailbox";
import { addRelationship } from "./relationships-api";
import { toast } from "./ui";

/**
 * Issue 37, item 8: a notice's links as a person follows them. "Add back" opens Buddies and waits
 * for the button; the unsubscribe link shows a page whose button turns that kind of mail off.
 */
for (const { width, height } of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`a Buddy notice's Add back and unsubscribe links (${width} px)`, async ({ page, request }) => {
    const adder = await createOnboardedAccount(request, `adder${width}`);
    const reader = await createOnboardedAccount(request, `reader${width}`);
    const before = mailCount();
    await addRelationship(request, adder.token, {
      type: "complement",
      organizationId: reader.organizationId,
    });
    const base = process.env.E2E_BASE_URL as string;
    const addBack = await waitForLink(reader.email, `${base}/dashboard/tools?add=`, before);
    const unsubscribe = await waitForLink(
      reader.email,
      `${base}/api/notifications/unsubscribe?token=`,
      before,
    );

    await page.setViewportSize({ width, height });
    // Opened signed out: the sign-in leads on to where the mail pointed.
    await page.goto(addBack.slice(base.length));
    await expect(page).toHaveURL(/\/auth/);
    await page.getByLabel("Email").fill(reader.email);
    await page.getByLabel("Password", { exact: true }).fill(reader.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/dashboard\/tools\?add=/);
    const card = page.getByRole("region", { name: `Add adder${width}` });
    await expect(card.getByText(`Add adder${width} to your Buddies?`)).toBeVisible();
    await page.screenshot({ path: `/tmp/item8-add-back-${width}.png`, fullPage: true });
    await card.getByRole("button", { name: "Add Tool" }).click();
    await expect(toast(page, "Tool added successfully")).toBeVisible();
    await expect(card).toHaveCount(0);
    await expect(page).not.toHaveURL(/add=/);
    await expect(page.getByText(`adder${width}`, { exact: true }).first()).toBeVisible();

    // The visible unsubscribe link, opened signed out: a page, and nothing changes until its button.
    const context = await page.context().browser()?.newContext({ viewport: { width, height } });
    if (!context) throw new Error("no browser");
    const stranger = await context.newPage();
    await stranger.goto(unsubscribe);
    await expect(
      stranger.getByRole("heading", { name: `Unsubscribe ${reader.email} from Email Notifications?` }),
    ).toBeVisible();
    await stranger.screenshot({ path: `/tmp/item8-unsubscribe-${width}.png` });
    await page.goto("/dashboard/settings?tab=notifications");
    await expect(page.getByRole("switch", { name: "Email Notifications" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    await stranger.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(
      stranger.getByRole("heading", { name: `${reader.email} is unsubscribed from Email Notifications.` }),
    ).toBeVisible();
    await stranger.screenshot({ path: `/tmp/item8-unsubscribed-${width}.png` });
    await context.close();
    await page.reload();
    await expect(page.getByRole("switch", { name: "Email Notifications" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    await expect(page.getByRole("switch", { name: "Weekly Digest" })).toHaveAttribute("aria-checked", "true");
  });
}
