import type { Locator, Page } from "@playwright/test";
import { createOnboardedAccount, createVerifiedAccount } from "./accounts";
import { FIXTURE_SITE, fixtureHost } from "./fixture-site";
import { expect, test } from "./fixtures";
import { mailCount, waitForLink } from "./mailbox";
import { chooseOption, signIn, toast, uniqueDomain, uniqueName } from "./ui";

const STEP_TITLES = {
  1: "Tell us about your company",
  2: "Who are your competitors? We'll block them from your ads",
  3: "Select complementary tools to be your Buddies",
} as const;

async function openSetup(page: Page, token: string) {
  await signIn(page, token);
  await page.goto("/setup");
  await expect(page.getByText(STEP_TITLES[1])).toBeVisible();
}

async function expectStep(page: Page, step: 1 | 2 | 3) {
  await expect(page.getByText(STEP_TITLES[step])).toBeVisible();
  const progress = page.getByRole("progressbar");
  await expect(progress).toHaveAttribute("aria-valuenow", String(step));
  await expect(progress).toHaveAttribute("aria-valuemax", "3");
  await expect(page.getByText(`Step ${step} of 3`)).toBeVisible();
}

const field = {
  website: (page: Page) => page.getByLabel("Website"),
  companyName: (page: Page) => page.getByLabel("Company Name"),
  description: (page: Page) => page.getByLabel("Description"),
};

async function fillCompany(page: Page, company: { website: string; name: string; description: string }) {
  await field.companyName(page).fill(company.name);
  await field.description(page).fill(company.description);
  await field.website(page).fill(company.website);
  await field.website(page).blur();
  await chooseOption(page, "Transactional Email Provider", "Postmark");
  await chooseOption(page, "Marketing Email Provider", "Mailchimp");
}

/** A chip's toggle is a button named after the company, pressed when selected. */
const chip = (scope: Page | Locator, name: string) => scope.getByRole("button", { name, exact: true });

test("a new user sets up their company in three steps and finds the chosen competitor and Buddies on the dashboard", async ({
  page,
  request,
}) => {
  const domain = uniqueDomain("journey");
  // An address at the company's domain proves it (CONTRACT §4).
  const account = await createVerifiedAccount(request, "journey", domain);
  await openSetup(page, account.token);
  await expectStep(page, 1);
  await expect(page.getByRole("button", { name: "Previous" })).toHaveCount(0);

  await fillCompany(page, {
    // A pasted scheme is dropped: the field shows a fixed https:// prefix.
    website: `https://${domain}`,
    name: uniqueName("Journey"),
    description: "Product analytics for teams who ship every day: funnels, cohorts and retention.",
  });
  await expect(field.website(page)).toHaveValue(domain);
  await page.getByRole("button", { name: "Continue" }).click();

  await expectStep(page, 2);
  const chips = page.getByTestId("suggestion-chip");
  await expect(chips.first()).toBeVisible();
  expect(await chips.count()).toBeGreaterThan(1);
  // Catalog competitors of a product-analytics company, each with a link to its site.
  const mixpanel = chip(page, "Mixpanel");
  await expect(mixpanel).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByRole("link", { name: "Visit Mixpanel" })).toHaveAttribute(
    "href",
    /^https:\/\/mixpanel\.com\/?$/,
  );
  await expect(page.getByRole("link", { name: "Visit Mixpanel" })).toHaveAttribute("target", "_blank");
  await mixpanel.click();
  await expect(mixpanel).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("button", { name: "Continue" }).click();

  await expectStep(page, 3);
  const cdp = page.getByRole("group", { name: "Customer Data Platforms" });
  const flags = page.getByRole("group", { name: "Feature Flags" });
  await expect(cdp.getByTestId("suggestion-chip").first()).toBeVisible();
  await chip(cdp, "Segment").click();
  await chip(flags, "LaunchDarkly").click();
  await expect(chip(cdp, "Segment")).toHaveAttribute("aria-pressed", "true");
  await expect(chip(flags, "LaunchDarkly")).toHaveAttribute("aria-pressed", "true");
  await expect(chip(cdp, "RudderStack")).toHaveAttribute("aria-pressed", "false");

  // Previous goes back a step and nothing chosen is lost.
  await page.getByRole("button", { name: "Previous" }).click();
  await expectStep(page, 2);
  await expect(chip(page, "Mixpanel")).toHaveAttribute("aria-pressed", "true");
  await expect(chip(page, "Amplitude")).toHaveAttribute("aria-pressed", "false");
  await page.getByRole("button", { name: "Continue" }).click();
  await expectStep(page, 3);
  await expect(chip(cdp, "Segment")).toHaveAttribute("aria-pressed", "true");
  await expect(chip(flags, "LaunchDarkly")).toHaveAttribute("aria-pressed", "true");

  await page.getByRole("button", { name: "Complete Setup" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(toast(page, "Onboarding completed successfully")).toBeVisible();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Block List" }).click();
  const competitors = page.getByTestId("relationship-card");
  await expect(competitors).toHaveCount(1);
  await expect(competitors).toContainText("Mixpanel");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Buddies" }).click();
  const buddies = page.getByTestId("relationship-card");
  await expect(buddies).toHaveCount(2);
  await expect(buddies.filter({ hasText: "Segment" })).toHaveCount(1);
  await expect(buddies.filter({ hasText: "LaunchDarkly" })).toHaveCount(1);

  // Set up once: /setup now leads to the dashboard.
  await page.goto("/setup");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("step 1 names every missing or invalid field and does not move on", async ({ page, request }) => {
  const account = await createVerifiedAccount(request, "setup-validation");
  await openSetup(page, account.token);

  await page.getByRole("button", { name: "Continue" }).click();
  for (const message of [
    "Company name is required",
    "Website is required",
    "Please provide a brief description",
    "Transactional email provider is required",
    "Marketing email provider is required",
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await expectStep(page, 1);

  await field.website(page).fill("acme");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Must be a valid domain", { exact: true })).toBeVisible();
  await expect(page.getByText("Website is required", { exact: true })).toHaveCount(0);
  await expect(field.website(page)).toHaveAttribute("aria-invalid", "true");

  await field.description(page).fill("Too short");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Please provide a brief description", { exact: true })).toBeVisible();
  // The name cannot be longer than 25 characters.
  await expect(field.companyName(page)).toHaveAttribute("maxlength", "25");
  await expectStep(page, 1);
});

test("leaving the website field fills the empty company name (cut to 25 characters) and description from the site", async ({
  page,
  request,
}) => {
  const account = await createVerifiedAccount(request, "autofill");
  await openSetup(page, account.token);

  const lookup = page.waitForResponse((response) => response.url().includes("/api/metadata?"));
  await field.website(page).fill(fixtureHost());
  await field.website(page).blur();
  const metadataCall = (await lookup).url();
  // 'Fixture Analytics Platform International' cut at 25 is 'Fixture Analytics Platfor': the
  // partial last word goes.
  await expect(field.companyName(page), `metadata looked up as ${metadataCall}`).toHaveValue(
    "Fixture Analytics",
  );
  await expect(field.description(page)).toHaveValue(FIXTURE_SITE.description);

  // Only empty fields are filled: a name typed first is kept.
  await page.reload();
  await field.companyName(page).fill("Our Own Name");
  await field.website(page).fill(fixtureHost());
  await field.website(page).blur();
  await expect(field.description(page)).toHaveValue(FIXTURE_SITE.description);
  await expect(field.companyName(page)).toHaveValue("Our Own Name");
});

test("a user whose company is already on Buddy waits for its admin's approval instead of taking it over", async ({
  page,
  request,
}) => {
  const companyName = uniqueName("Taken");
  const owner = await createOnboardedAccount(request, "owner", { companyName });
  const colleague = await createVerifiedAccount(request, "colleague");
  await openSetup(page, colleague.token);

  await fillCompany(page, {
    website: `www.${owner.domain}`,
    name: uniqueName("Takeover"),
    description: "Trying to register a company that already has an admin on Buddy.",
  });
  await page.getByRole("button", { name: "Continue" }).click();
  await expectStep(page, 2);
  await page.getByRole("button", { name: "Continue" }).click();
  await expectStep(page, 3);
  const before = mailCount();
  await page.getByRole("button", { name: "Complete Setup" }).click();

  const notice = page.getByTestId("pending-approval");
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(
    `Your request to join ${companyName} is waiting for an admin's approval.`,
  );
  await expect(
    toast(
      page,
      `${companyName} is already on Buddy. An admin of ${companyName} needs to approve your request to join.`,
    ),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/setup$/);

  // The admin hears about it by mail, with a link to the team settings.
  await waitForLink(owner.email, `${process.env.E2E_BASE_URL}/dashboard/settings?tab=team`, before);

  // The dashboard stays closed, and the notice survives a reload.
  await page.goto("/dashboard/tools");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByTestId("pending-approval")).toBeVisible();

  // The company was not taken over: it keeps its name.
  const organization = await request.get("/api/organization", {
    headers: { authorization: `Bearer ${owner.token}` },
  });
  expect(((await organization.json()) as { name: string }).name).toBe(companyName);
});

test("a free-mail user who sets up a real company's website must verify the domain: nothing is taken over, no ad is served, and the real owner keeps it", async ({
  page,
  request,
}, testInfo) => {
  // Catalog companies not on Buddy yet; a retry takes the next, as the first attempt's owner stays.
  const domain = ["dialpad.com", "aircall.io", "nextiva.com"][testInfo.retry] ?? "ringcentral.com";
  const squatter = await createVerifiedAccount(request, "squatter", "gmail.com");
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  // A partner already lists the company as a Buddy and serves its ads through the Ads API.
  const partner = await createOnboardedAccount(request, "squat-partner");
  const search = await request.get(`/api/organizations/search?query=${domain}`, {
    headers: bearer(partner.token),
  });
  const company = ((await search.json()) as Array<{ id: string; name: string; domain: string }>).find(
    (org) => org.domain === domain,
  );
  expect(company).toBeTruthy();
  const catalogName = company?.name ?? "";
  await request.post("/api/relationships", {
    headers: bearer(partner.token),
    data: { organizationId: company?.id, type: "complement" },
  });
  const key = await request.post("/api/api-keys", { headers: bearer(partner.token), data: { name: "Ads" } });
  const apiKey = ((await key.json()) as { key: string }).key;

  await openSetup(page, squatter.token);
  await fillCompany(page, {
    website: `https://www.${domain}/`,
    name: "Totally the owner",
    description: "Pretending to be a company we do not control, to publish ads under its name.",
  });
  await page.getByRole("button", { name: "Continue" }).click();
  await expectStep(page, 2);
  await page.getByRole("button", { name: "Continue" }).click();
  await expectStep(page, 3);
  await page.getByRole("button", { name: "Complete Setup" }).click();

  // The verification screen, with the user's own token in a meta tag and a TXT record.
  const screen = page.getByTestId("domain-verification");
  await expect(page.getByRole("heading", { name: "Verify your domain" })).toBeVisible();
  await expect(page.getByText(`Show that you control ${domain} to finish setting up Buddy.`)).toBeVisible();
  const me = await request.get("/api/me", { headers: bearer(squatter.token) });
  const claim = ((await me.json()) as { user: { domainClaim: { domain: string; token: string } } }).user
    .domainClaim;
  expect(claim.domain).toBe(domain);
  await expect(screen.getByLabel("Meta tag")).toHaveText(
    `<meta name="buddy-site-verification" content="${claim.token}">`,
  );
  await expect(screen.getByLabel("TXT record")).toHaveText(`buddy-site-verification=${claim.token}`);
  await page.screenshot({ path: testInfo.outputPath("domain-verification.png"), fullPage: true });

  // Nothing on the site proves it: 'Check again' says so and the screen stays.
  await screen.getByRole("button", { name: "Check again" }).click();
  await expect(screen.getByRole("alert")).toContainText(
    `We could not find the meta tag on https://${domain}/`,
    {
      timeout: 20_000,
    },
  );
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByTestId("domain-verification")).toBeVisible();

  // Nothing was taken over or published: the catalog company keeps its name, the squatter can
  // write no ad, and the partner's Ads API has nothing of the company to serve.
  const refused = await request.post("/api/marketing/collateral", {
    headers: bearer(squatter.token),
    data: {
      name: "Log in now",
      description: "Your account needs attention.",
      ctaText: "Log in",
      ctaUrl: "https://phishing.example/login",
      status: "active",
    },
  });
  expect(refused.status()).toBe(403);
  const ads = await request.get("/api/ads?format=json", { headers: { "x-api-key": apiKey } });
  expect(ads.status()).toBe(404);
  const again = await request.get(`/api/organizations/search?query=${domain}`, {
    headers: bearer(partner.token),
  });
  const unchanged = (
    (await again.json()) as Array<{ domain: string; name: string; isPlatformUser: boolean }>
  ).find((org) => org.domain === domain);
  expect(unchanged).toMatchObject({ name: catalogName, isPlatformUser: false });

  // The real owner arrives with an address at the domain: they own it at once.
  const owner = await createOnboardedAccount(request, "ceo", {
    website: `https://${domain}`,
    companyName: catalogName.slice(0, 25),
  });
  expect(owner.organizationId).toBe(company?.id);

  // The squatter's next check finds it claimed: a pending request for the owner to judge.
  await page.reload();
  await page.getByTestId("domain-verification").getByRole("button", { name: "Check again" }).click();
  await expect(page.getByTestId("pending-approval")).toBeVisible();
  const team = await request.get("/api/team-members", { headers: bearer(owner.token) });
  const members = (await team.json()) as Array<{ role: string; status: string; user: { email: string } }>;
  expect(members.find((m) => m.user.email === squatter.email)).toMatchObject({
    role: "member",
    status: "pending",
  });
});

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`at ${viewport.width} px the website comes from the work address, and step 3 lists a company already on Buddy first with its badge`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    // A proven shop already on Buddy, in a category that complements e-mail marketing.
    const shopName = uniqueName("Aashop");
    await createOnboardedAccount(request, "onbuddy-shop", {
      companyName: shopName,
      description: "An e-commerce storefront platform for independent shops",
    });
    const domain = uniqueDomain("mailer");
    const account = await createVerifiedAccount(request, "prefill", domain);
    await openSetup(page, account.token);

    // The work address names the company's site: prefilled, and looked up as if typed.
    await expect(field.website(page)).toHaveValue(domain);
    await field.companyName(page).fill(uniqueName("Mailer"));
    await field.description(page).fill("An e-mail marketing tool for small shops and newsletters.");
    await chooseOption(page, "Transactional Email Provider", "Postmark");
    await chooseOption(page, "Marketing Email Provider", "Mailchimp");
    await page.screenshot({ path: `/tmp/item7-prefill-${viewport.width}.png`, fullPage: true });
    await page.getByRole("button", { name: "Continue" }).click();
    await expectStep(page, 2);
    await page.getByRole("button", { name: "Continue" }).click();
    await expectStep(page, 3);

    // Companies on Buddy come first: the first chip of the step, and first in their category.
    const chips = page.getByTestId("suggestion-chip");
    await expect(chips.first().getByTestId("on-buddy-badge")).toHaveText("On Buddy");
    await expect(page.getByTestId("on-buddy-note")).toBeVisible();
    const ecommerce = page.getByRole("group", { name: "E-commerce Platforms" });
    const shop = ecommerce.getByTestId("suggestion-chip").filter({ has: chip(page, shopName) });
    await expect(shop.getByTestId("on-buddy-badge")).toBeVisible();
    const badges = await ecommerce
      .getByTestId("suggestion-chip")
      .evaluateAll((elements) =>
        elements.map((element) => element.querySelector("[data-testid=on-buddy-badge]") !== null),
      );
    expect(badges.indexOf(false)).toBeGreaterThan(0);
    expect(badges.slice(badges.indexOf(false))).not.toContain(true);
    await shop.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/item7-on-buddy-${viewport.width}.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // Chosen, it becomes a Buddy like any other.
    await chip(ecommerce, shopName).click();
    await page.getByRole("button", { name: "Complete Setup" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/dashboard/tools");
    await expect(page.getByTestId("relationship-card").filter({ hasText: shopName })).toHaveCount(1);
  });
}
