import type { Locator, Page } from "@playwright/test";
import { createOnboardedAccount } from "./accounts";
import { createCollateral } from "./collateral-api";
import { fixtureUrl, localhostDomain } from "./fixture-site";
import { expect, test } from "./fixtures";
import { addRelationship } from "./relationships-api";
import { signIn, toast, uniqueName } from "./ui";

/**
 * Sharing in one click (issue 37, item 3), at a desktop's and a phone's width: on a Buddy's page
 * the partner's ads come right after the company profile, each shows the short tracked link it
 * will share, Copy link copies that link (which redirects with a click id), and a copy's notice
 * never covers the Copy buttons.
 */
const WIDTHS = [
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
] as const;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether two boxes share any pixel. */
function intersects(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The button is the element the browser finds at its centre: nothing covers it. */
async function isUncovered(button: Locator) {
  return button.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const found = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
    return found !== null && element.contains(found) && rect.bottom <= window.innerHeight && rect.top >= 0;
  });
}

async function topOf(page: Page, testId: string) {
  const box = await page.getByTestId(testId).boundingBox();
  if (!box) throw new Error(`${testId} is not on the page`);
  return box.y;
}

for (const viewport of WIDTHS) {
  test(`at ${viewport.width} px: the ads come first, Copy link copies the previewed short link, which redirects with bclickid, and notices leave the Copy buttons clickable`, async ({
    page,
    context,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const baseUrl = process.env.E2E_BASE_URL ?? "";
    const sharerName = uniqueName("Sharer");
    const sharer = await createOnboardedAccount(request, "share-a", { companyName: sharerName });
    const partnerName = uniqueName("Quillmail");
    const partner = await createOnboardedAccount(request, "share-b", {
      companyName: partnerName,
      website: `https://${localhostDomain("share-b")}`,
    });
    const relationship = await addRelationship(request, sharer.token, {
      type: "complement",
      organizationId: partner.organizationId,
    });
    const landingUrl = fixtureUrl(`/landing?org=${partner.organizationId}`, partner.domain);
    await createCollateral(request, partner.token, {
      name: "Partner sign-up offer",
      description: "Sign up for the partner's product through a Buddy.",
      ctaText: "Sign up now",
      ctaUrl: landingUrl,
      status: "active",
    });

    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await signIn(page, sharer.token);
    await page.goto(`/dashboard/tools/${relationship.id}`);
    await expect(page.getByRole("heading", { name: partnerName, level: 1 })).toBeVisible();
    const item = page.getByTestId("tool-collateral-item").filter({ hasText: "Partner sign-up offer" });
    await expect(item).toHaveCount(1);

    // The ads right after the company profile, the give-and-take below them.
    await expect(page.getByTestId("partner-ledger-card")).toBeVisible();
    const profileTop = await topOf(page, "tool-profile");
    const adsTop = await topOf(page, "tool-collateral");
    expect(profileTop).toBeLessThan(adsTop);
    expect(adsTop).toBeLessThan(await topOf(page, "partner-ledger-card"));
    if ((await page.getByTestId("revenue-card").count()) > 0) {
      expect(adsTop).toBeLessThan(await topOf(page, "revenue-card"));
    }

    // The preview shows the link that will be shared: the short tracked link, not the CTA's URL.
    const shownLink = item.getByTestId("collateral-cta-url");
    await expect(shownLink).toHaveAttribute(
      "title",
      new RegExp(`^${escapeRegExp(baseUrl)}/s/[A-Za-z0-9_-]+$`),
    );
    const shortUrl = (await shownLink.getAttribute("title")) as string;
    await expect(shownLink).toHaveText(shortUrl.replace(/^https?:\/\//, ""));
    const frame = item.getByTitle("HTML preview: Partner sign-up offer").contentFrame();
    await expect(frame.getByRole("link", { name: "Sign up now" })).toHaveAttribute("href", shortUrl);

    // Copy link: that very link on the clipboard.
    await item.getByRole("button", { name: "Copy link" }).click();
    await expect(toast(page, "Link copied to clipboard")).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shortUrl);

    // Fetched as a reader's browser would: a 302 to the partner's page with a click id.
    const userAgent = await page.evaluate(() => navigator.userAgent);
    const followed = await request.get(copied, { maxRedirects: 0, headers: { "user-agent": userAgent } });
    expect(followed.status()).toBe(302);
    const location = new URL(followed.headers().location ?? "");
    expect(location.host).toBe(new URL(landingUrl).host);
    expect(location.pathname).toBe("/landing");
    const clickId = location.searchParams.get("bclickid");
    expect(clickId).toMatch(/\S/);

    // The worst place for the buttons: their row's bottom at the screen's bottom edge, where notices sit.
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
    const copyJson = item.getByRole("button", { name: "Copy JSON" });
    await copyJson.evaluate((element) => {
      const rect = element.getBoundingClientRect();
      window.scrollBy(0, rect.bottom - window.innerHeight + 2);
    });
    expect(await isUncovered(copyJson)).toBe(true);

    await item.getByRole("button", { name: "Copy HTML" }).click();
    const notice = page.locator("[data-sonner-toast]").filter({ hasText: "HTML copied to clipboard" });
    await expect(notice).toBeVisible();
    await expect(notice).toHaveAttribute("data-mounted", "true");
    // Sonner slides a notice in over 400 ms: judge where it ends up.
    await page.waitForTimeout(600);
    await page.screenshot({ path: `/tmp/sharing-copy-html-${viewport.width}.png` });
    const noticeBox = await notice.boundingBox();
    expect(noticeBox).not.toBeNull();
    for (const name of ["Copy link", "Copy HTML", "Copy Text", "Copy JSON"]) {
      const box = await item.getByRole("button", { name }).boundingBox();
      expect(box, name).not.toBeNull();
      expect(
        intersects(noticeBox as NonNullable<typeof noticeBox>, box as NonNullable<typeof box>),
        name,
      ).toBe(false);
    }
    expect(await isUncovered(copyJson)).toBe(true);
    await copyJson.click({ trial: true });
    await copyJson.click();
    await expect(toast(page, "JSON copied to clipboard")).toBeVisible();
    const json = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
    expect(json.ctaUrl).toBe(shortUrl);

    // The reader buys: both activity feeds name the amount (issue 37, item 4).
    const key = await request.post("/api/api-keys", {
      headers: { authorization: `Bearer ${partner.token}` },
      data: { name: "Sharing test" },
    });
    expect(key.status()).toBe(201);
    const purchase = await request.post("/api/marketing/conversion", {
      headers: { "x-api-key": ((await key.json()) as { key: string }).key },
      data: { clickId, type: "purchase", value: 49.99, currency: "USD" },
    });
    expect(purchase.status(), await purchase.text()).toBe(201);
    const activity = page.getByTestId("recent-activity").getByTestId("activity-item");
    await page.goto("/dashboard");
    await expect(activity.filter({ hasText: `Purchase of $49.99 sent to ${partnerName}` })).toHaveCount(1);
    await page.getByTestId("recent-activity").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/sharing-activity-${viewport.width}.png` });
    await signIn(page, partner.token);
    await page.goto("/dashboard");
    await expect(activity.filter({ hasText: `Purchase of $49.99 from ${sharerName}` })).toHaveCount(1);
  });
}
