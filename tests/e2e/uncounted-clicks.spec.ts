import type { APIRequestContext, Page } from "@playwright/test";
import { createOnboardedAccount } from "./accounts";
import { type CollateralRecord, createCollateral } from "./collateral-api";
import { expect, test } from "./fixtures";
import { addRelationship } from "./relationships-api";
import { signIn, uniqueName } from "./ui";

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const BROWSER = (n: number) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.${n}.0 Safari/537.36`;

/** A hit on the tracked link: 302 whatever its verdict. */
async function hit(
  request: APIRequestContext,
  url: string,
  userAgent: string,
  method: "GET" | "HEAD" = "GET",
) {
  const response = await request.fetch(url, {
    method,
    maxRedirects: 0,
    headers: { "user-agent": userAgent },
  });
  expect(response.status()).toBe(302);
}

/** The overview's card holding this stat (the card's link carries `data-stat`). */
const cardOf = (page: Page, stat: string) =>
  page.locator('[data-slot="card"]').filter({ has: page.locator(`[data-stat="${stat}"]`) });

/**
 * CONTRACT §5 and issue 36, item 4: the overview's clicks cards say, on demand, how many clicks of
 * the last 30 days did not count and why, at a desktop's width and a phone's.
 */
test("the clicks cards explain on demand why clicks did not count", async ({ page, request }, testInfo) => {
  const sharer = await createOnboardedAccount(request, "uncounted-a", { companyName: uniqueName("Sharer") });
  const advertiser = await createOnboardedAccount(request, "uncounted-b", {
    companyName: uniqueName("Advertiser"),
  });
  await addRelationship(request, sharer.token, {
    type: "complement",
    organizationId: advertiser.organizationId,
  });
  await createCollateral(request, advertiser.token, { name: "Why offer", status: "active" });
  const listed = await request.get(`/api/marketing/collateral?organizationId=${advertiser.organizationId}`, {
    headers: bearer(sharer.token),
  });
  const [ad] = (await listed.json()) as CollateralRecord[];
  const trackedUrl = ad?.trackedUrl as string;
  expect(trackedUrl).toBeTruthy();

  // From this machine (loopback): the visitor rules alone. 2 people count; 2 bots and a repeat do not.
  await hit(request, trackedUrl, BROWSER(1));
  await hit(request, trackedUrl, BROWSER(1));
  await hit(request, trackedUrl, "curl/8.5.0");
  await hit(request, trackedUrl, BROWSER(2), "HEAD");
  await hit(request, trackedUrl, BROWSER(3));

  await signIn(page, sharer.token);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/dashboard");
  const sent = cardOf(page, "clicks-sent");
  await expect(sent.getByTestId("stat-value")).toHaveText("2");
  // The six cards as SPEC has them; only the clicks cards ask "Why?".
  await expect(page.getByTestId("stat-card")).toHaveCount(6);
  await expect(page.getByRole("button", { name: "Why?" })).toHaveCount(2);

  const why = sent.getByRole("button", { name: "Why?" });
  await expect(why).toHaveAttribute("aria-expanded", "false");
  await why.click();
  await expect(why).toHaveAttribute("aria-expanded", "true");
  await expect(sent.getByTestId("uncounted-clicks-text")).toContainText("3 not counted: 2 bots, 1 repeat");
  await expect(sent.getByTestId("uncounted-clicks-text")).toContainText("Last 30 days");
  // Still the overview: the button is not the card's link.
  await expect(page).toHaveURL(/\/dashboard$/);
  const received = cardOf(page, "clicks-received");
  await received.getByRole("button", { name: "Why?" }).click();
  await expect(received.getByTestId("uncounted-clicks-text")).toContainText("Every click counted");
  const cards = page.getByRole("region", { name: "Key numbers" });
  await cards.screenshot({ path: testInfo.outputPath("uncounted-clicks-1280.png") });

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(sent.getByTestId("uncounted-clicks-text")).toBeVisible();
  // Nothing wider than the phone: the sentence wraps inside its card.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = await sent.getByTestId("uncounted-clicks-text").boundingBox();
  const cardBox = await sent.boundingBox();
  expect(box && cardBox && box.x + box.width <= cardBox.x + cardBox.width + 1).toBe(true);
  await cards.screenshot({ path: testInfo.outputPath("uncounted-clicks-390.png") });

  // Closed again, the card is as before.
  await why.click();
  await expect(sent.getByTestId("uncounted-clicks-text")).toHaveCount(0);
});
