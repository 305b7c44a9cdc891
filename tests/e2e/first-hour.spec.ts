import { writeFileSync } from "node:fs";
import { createOnboardedAccount } from "./accounts";
import { createCollateral } from "./collateral-api";
import { expect, test } from "./fixtures";
import { mailCount, waitForLink } from "./mailbox";
import { chooseOption, toast, uniqueDomain, uniqueName } from "./ui";

/**
 * A new company's first hour, all through the screens (issue 37): sign up, verify from the mail,
 * set up with a partner already on Buddy as a Buddy, share that partner's ad, and see the first
 * click a reader makes on the overview without reloading. Each step's time is written to
 * `first-hour.json` in the test's output folder.
 */
test("a new company goes from sign-up to its first partner click on the overview, through the screens only", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const baseUrl = process.env.E2E_BASE_URL ?? "";
  // The partner: a proven shop on Buddy, in a category that complements e-mail marketing, with an ad.
  const shopName = uniqueName("Aashop");
  const shop = await createOnboardedAccount(request, "first-hour-shop", {
    companyName: shopName,
    description: "An e-commerce storefront platform for independent shops",
  });
  await createCollateral(request, shop.token, {
    name: "Open your shop",
    description: "A storefront for independent shops, free for 30 days.",
    ctaText: "Start selling",
    status: "active",
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);

  const started = Date.now();
  const steps: { step: string; seconds: number }[] = [];
  const mark = (step: string) => steps.push({ step, seconds: (Date.now() - started) / 1000 });

  // Sign-up with a work address at the company's own domain.
  const domain = uniqueDomain("mailer");
  const email = `ana@${domain}`;
  const before = mailCount();
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Register" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("Sup3r-secret!");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(
    page.getByText("Registration successful! Please check your email to verify your account."),
  ).toBeVisible();
  mark("signed up");

  await page.goto(await waitForLink(email, `${baseUrl}/verify-email?token=`, before));
  await expect(page).toHaveURL(/\/setup$/);
  mark("verified from the mail");

  // Setup: the website comes from the address; the shop is offered first in step 3, on Buddy.
  await expect(page.getByLabel("Website")).toHaveValue(domain);
  await page.getByLabel("Company Name").fill(uniqueName("Mailer"));
  await page.getByLabel("Description").fill("An e-mail marketing tool for small shops and newsletters.");
  await chooseOption(page, "Transactional Email Provider", "Postmark");
  await chooseOption(page, "Marketing Email Provider", "Mailchimp");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  const shopChip = page
    .getByTestId("suggestion-chip")
    .filter({ has: page.getByRole("button", { name: shopName, exact: true }) });
  await expect(shopChip.getByTestId("on-buddy-badge")).toBeVisible();
  await shopChip.getByRole("button", { name: shopName, exact: true }).click();
  await page.getByRole("button", { name: "Complete Setup" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(toast(page, "Onboarding completed successfully")).toBeVisible();
  mark("set up, with the shop as a Buddy");

  // The Next steps card leads to the shop's ad; Copy link takes its tracked short link.
  const clicksSent = page.locator('[data-stat="clicks-sent"]').getByTestId("stat-value");
  await expect(clicksSent).toHaveText("0");
  await page.getByRole("link", { name: /Share a partner's ad/ }).click();
  await page.getByTestId("relationship-card").filter({ hasText: shopName }).getByRole("link").first().click();
  const ad = page.getByTestId("tool-collateral-item").filter({ hasText: "Open your shop" });
  await ad.getByRole("button", { name: "Copy link" }).click();
  await expect(toast(page, "Link copied to clipboard")).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(new RegExp(`^${baseUrl}/s/`));
  mark("copied the shop's ad link");

  // Back on the overview, a newsletter reader follows the link: the click shows without a reload.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }).click();
  await expect(clicksSent).toHaveText("0");
  const followed = await request.get(link, {
    maxRedirects: 0,
    headers: {
      "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148 Safari/604.1",
    },
  });
  expect(followed.status()).toBe(302);
  expect(new URL(followed.headers().location ?? "").searchParams.get("bclickid")).toMatch(/\S/);
  const clicked = Date.now();
  await expect(clicksSent).toHaveText("1", { timeout: 5_000 });
  mark(`the reader's click on the overview (${((Date.now() - clicked) / 1000).toFixed(1)} s after it)`);
  await expect(
    page
      .getByRole("listitem")
      .filter({ hasText: `Click sent to ${shopName}` })
      .first(),
  ).toBeVisible();

  writeFileSync(test.info().outputPath("first-hour.json"), JSON.stringify(steps, null, 2));
  console.log(steps.map(({ step, seconds }) => `${seconds.toFixed(1).padStart(6)} s  ${step}`).join("\n"));
});
