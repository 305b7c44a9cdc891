import type { Page } from "@playwright/test";
import sharp from "sharp";
import { createOnboardedAccount } from "./accounts";
import { expect, test } from "./fixtures";
import { signIn, toast, uniqueName } from "./ui";

const profileForm = (page: Page) => page.getByRole("form", { name: "Organization Profile" });

async function openProfile(page: Page, token: string) {
  await signIn(page, token);
  await page.goto("/dashboard/settings");
  await expect(page.getByText("Organization Profile", { exact: true })).toBeVisible();
  await expect(page.getByText("Update your organization's information")).toBeVisible();
  await expect(profileForm(page).getByLabel("Name")).toBeEditable();
}

/** Counts the requests the page makes that match, e.g. every PATCH /api/organization. */
function countRequests(page: Page, method: string, path: string) {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (request.method() === method && new URL(request.url()).pathname === path) seen.push(request.url());
  });
  return () => seen.length;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("the profile form saves name, industry and size, and they persist after a reload", async ({
  page,
  request,
}) => {
  const account = await createOnboardedAccount(request, "org-profile", {
    companyName: uniqueName("Profile"),
  });
  await openProfile(page, account.token);
  const form = profileForm(page);
  await expect(form.getByLabel("Website")).toHaveValue(`https://${account.domain}`);
  await expect(form.getByLabel("Industry")).toHaveAttribute("placeholder", "e.g. Software");

  const name = uniqueName("Renamed");
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Industry").fill("Marketing Software");
  await form.getByLabel("Size (number of employees)").fill("42");
  await form.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page, "Settings updated successfully")).toBeVisible();

  await page.reload();
  await expect(form.getByLabel("Name")).toHaveValue(name);
  await expect(form.getByLabel("Industry")).toHaveValue("Marketing Software");
  await expect(form.getByLabel("Size (number of employees)")).toHaveValue("42");
  const stored = await request.get("/api/organization", {
    headers: { authorization: `Bearer ${account.token}` },
  });
  expect(await stored.json()).toMatchObject({ name, industry: "Marketing Software", size: 42 });
});

test("a cleared name is refused without saving anything", async ({ page, request }) => {
  const companyName = uniqueName("Keepname");
  const account = await createOnboardedAccount(request, "org-required", { companyName });
  await openProfile(page, account.token);
  const patches = countRequests(page, "PATCH", "/api/organization");
  const form = profileForm(page);

  await form.getByLabel("Name").fill("");
  await form.getByRole("button", { name: "Save Changes" }).click();
  await expect(form.getByText("Organization name is required")).toBeVisible();
  await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  expect(patches()).toBe(0);

  await page.reload();
  await expect(form.getByLabel("Name")).toHaveValue(companyName);
});

test("uploading a PNG logo replaces the placeholder with the cache-busted logo", async ({
  page,
  request,
}) => {
  const companyName = uniqueName("Logoco");
  const account = await createOnboardedAccount(request, "org-logo", { companyName });
  await openProfile(page, account.token);
  const form = profileForm(page);
  await expect(form.getByTestId("org-logo-placeholder")).toBeVisible();

  const png = await sharp({
    create: { width: 300, height: 300, channels: 3, background: { r: 30, g: 120, b: 200 } },
  })
    .png()
    .toBuffer();
  await form
    .getByTestId("logo-input")
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png });
  await expect(toast(page, "Logo updated successfully")).toBeVisible();

  const logoSrc = new RegExp(`^/api/logos/${escapeRegExp(account.domain)}\\.jpg\\?v=\\d+$`);
  const logo = form.getByRole("img", { name: `${companyName} logo` });
  await expect(logo).toHaveAttribute("src", logoSrc);
  await expect(form.getByTestId("org-logo-placeholder")).toHaveCount(0);
  // The browser really got an image back (a failed load would bring the placeholder back).
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  await page.reload();
  await expect(logo).toHaveAttribute("src", logoSrc);
  const served = await request.get(`/api/logos/${account.domain}.jpg`);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toContain("image/jpeg");
});

test("a logo over 2 MB, or one that is not a JPEG or PNG, is refused before it is uploaded", async ({
  page,
  request,
}) => {
  const account = await createOnboardedAccount(request, "org-bad-logo");
  await openProfile(page, account.token);
  const uploads = countRequests(page, "POST", "/api/organization/logo");
  const input = profileForm(page).getByTestId("logo-input");

  await input.setInputFiles({
    name: "huge.png",
    mimeType: "image/png",
    buffer: Buffer.alloc(3 * 1024 * 1024, 1),
  });
  await expect(toast(page, "Logo must be less than 2MB")).toBeVisible();

  for (const file of [
    { name: "logo.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;") },
    { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not an image") },
  ]) {
    const wrongType = toast(page, "Logo must be a JPEG or PNG image");
    // One notice at a time, so each file is seen to raise its own.
    await expect(wrongType).toHaveCount(0);
    await input.setInputFiles(file);
    await expect(wrongType).toBeVisible();
  }
  expect(uploads()).toBe(0);
  await expect(profileForm(page).getByTestId("org-logo-placeholder")).toBeVisible();
});

test("a website change to a domain the admin has not proven waits, with the verification card and banner, until it is proven or dropped", async ({
  page,
  request,
}, testInfo) => {
  const companyName = uniqueName("Mover");
  const account = await createOnboardedAccount(request, "org-move", { companyName });
  await openProfile(page, account.token);
  await expect(page.getByTestId("domain-verification-card")).toHaveCount(0);
  await expect(page.getByTestId("unverified-domain-banner")).toHaveCount(0);

  const moved = `moved-${Math.floor(Math.random() * 1e9)}.example.org`;
  const newName = uniqueName("Moved");
  const form = profileForm(page);
  await form.getByLabel("Name").fill(newName);
  await form.getByLabel("Website").fill(`https://${moved}`);
  await form.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page, "Settings updated successfully")).toBeVisible();

  // The new domain is the organization's own to prove, with a token only its admins see; the
  // organization stays on its proven domain, under its name, meanwhile.
  const card = page.getByTestId("domain-verification-card");
  await expect(card.getByText(`Verify ${moved}`)).toBeVisible();
  await expect(card).toContainText(
    `Your website change to ${moved} waits until you show that you control it. Until then your organization stays on ${account.domain}, with its name, badge and ads.`,
  );
  const headers = { authorization: `Bearer ${account.token}` };
  const status = await request.get("/api/organization/domain-verification", { headers });
  const { token } = (await status.json()) as { token: string };
  await expect(card.getByLabel("Meta tag")).toHaveText(
    `<meta name="buddy-site-verification" content="${token}">`,
  );
  await expect(card.getByLabel("TXT record")).toHaveText(`buddy-site-verification=${token}`);
  await expect(page.getByTestId("unverified-domain-banner")).toContainText(
    `Your website change to ${moved} is not verified yet: your organization stays on ${account.domain} until it is.`,
  );
  // The form shows the change as typed, so saving again keeps it.
  await page.reload();
  await expect(form.getByLabel("Website")).toHaveValue(`https://${moved}`);
  await expect(form.getByLabel("Name")).toHaveValue(newName);
  expect(await (await request.get("/api/organization", { headers })).json()).toMatchObject({
    name: companyName,
    domain: account.domain,
    domainVerified: true,
    pendingDomain: moved,
  });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("website-change-card-narrow.png"), fullPage: true });

  await card.getByRole("button", { name: "Check again" }).click();
  await expect(card.getByRole("alert")).toContainText(moved, { timeout: 20_000 });

  // Its ads still go out from its proven domain.
  const publish = await request.post("/api/marketing/collateral", {
    headers,
    data: {
      name: "Still here",
      description: "An ad for the proven site.",
      ctaText: "Go",
      ctaUrl: `https://${account.domain}/start`,
      status: "active",
    },
  });
  expect(publish.status()).toBe(201);

  // "Keep" drops the change: the card and banner go, the form shows the proven website again.
  await card.getByRole("button", { name: `Keep ${account.domain}` }).click();
  await expect(toast(page, "Settings updated successfully")).toBeVisible();
  await expect(card).toHaveCount(0);
  await expect(page.getByTestId("unverified-domain-banner")).toHaveCount(0);
  await expect(form.getByLabel("Website")).toHaveValue(`https://${account.domain}`);
  await expect(form.getByLabel("Name")).toHaveValue(companyName);
});
