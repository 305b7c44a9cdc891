import { createOnboardedAccount } from "./accounts";
import { createCollateral, metricsOf } from "./collateral-api";
import { fixtureUrl, localhostDomain } from "./fixture-site";
import { expect, test } from "./fixtures";
import { addRelationship } from "./relationships-api";
import { signIn, toast, uniqueName } from "./ui";

/**
 * The whole loop between two Buddies: A shares B's ad from B's tool page, a reader follows the
 * short link to B's landing page (another origin, with B's click script), signs up (B's
 * conversion script), and both organizations see the click and the lead.
 */
test("a copied ad's short link leads to the partner's site, and the click and the sign-up count for both", async ({
  page,
  context,
  request,
}) => {
  const baseUrl = process.env.E2E_BASE_URL ?? "";
  const a = await createOnboardedAccount(request, "journey-a", { companyName: uniqueName("Sharer") });
  const bName = uniqueName("Partner");
  const b = await createOnboardedAccount(request, "journey-b", {
    companyName: bName,
    website: `https://${localhostDomain("journey-b")}`,
  });
  const aToB = await addRelationship(request, a.token, {
    type: "complement",
    organizationId: b.organizationId,
  });
  await addRelationship(request, b.token, { type: "complement", organizationId: a.organizationId });
  const landingUrl = fixtureUrl(`/landing?org=${b.organizationId}`, b.domain);
  await createCollateral(request, b.token, {
    name: "Partner sign-up offer",
    description: "Sign up for the partner's product through a Buddy.",
    ctaText: "Sign up now",
    ctaUrl: landingUrl,
    imageUrl: fixtureUrl("/ad.png", b.domain),
    status: "active",
  });
  const before = {
    aClicks: await metricsOf(request, a.token, "clicks"),
    bClicks: await metricsOf(request, b.token, "clicks"),
    aLeads: await metricsOf(request, a.token, "leads"),
    bLeads: await metricsOf(request, b.token, "leads"),
  };
  expect(before.aClicks.sent + before.bClicks.received + before.aLeads.sent + before.bLeads.received).toBe(0);

  // A copies B's ad from B's tool page.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, a.token);
  await page.goto(`/dashboard/tools/${aToB.id}`);
  await expect(page.getByRole("heading", { name: bName, level: 1 })).toBeVisible();
  const item = page.getByTestId("tool-collateral-item").filter({ hasText: "Partner sign-up offer" });
  await expect(item).toHaveCount(1);
  const preview = item.getByTitle("HTML preview: Partner sign-up offer").contentFrame();
  await expect(preview.getByText("Sign up now")).toBeVisible();
  await item.getByRole("button", { name: "Copy HTML" }).click();
  await expect(toast(page, "HTML copied to clipboard")).toBeVisible();

  // The clipboard holds the ad both rendered (text/html) and as markup (text/plain).
  const clipboard = await page.evaluate(async () => {
    const [entry] = await navigator.clipboard.read();
    const read = async (type: string) =>
      entry?.types.includes(type) ? (await entry.getType(type)).text() : null;
    return { html: await read("text/html"), text: await navigator.clipboard.readText() };
  });
  expect(clipboard.html).toContain("Partner sign-up offer");
  expect(clipboard.text).toContain("Partner sign-up offer");
  const escapedBase = baseUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const shortUrl = clipboard.text.match(new RegExp(`href="(${escapedBase}/s/[A-Za-z0-9_-]+)"`))?.[1];
  expect(shortUrl, clipboard.text).toBeTruthy();

  // A reader follows the short link: B's landing page, on another origin, with a click id.
  const reader = await context.newPage();
  await reader.goto(shortUrl as string);
  await expect(reader.getByRole("heading", { name: "Welcome, partner visitor" })).toBeVisible();
  const landed = new URL(reader.url());
  expect(landed.host).toBe(new URL(landingUrl).host);
  expect(landed.pathname).toBe("/landing");
  expect(landed.searchParams.get("org")).toBe(b.organizationId);
  const clickId = landed.searchParams.get("bclickid");
  expect(clickId).toBeTruthy();

  // B's click script kept it, with its timestamp, in the landing origin's storage.
  await expect.poll(() => reader.evaluate(() => localStorage.getItem("buddy_bclickid"))).toBe(clickId);
  const storedAt = Number(await reader.evaluate(() => localStorage.getItem("buddy_bclickid_ts")));
  expect(Math.abs(Date.now() - storedAt)).toBeLessThan(60_000);

  // The reader signs up: B's conversion script on the thank-you page reports the lead.
  const conversion = reader.waitForResponse((response) =>
    response.url().startsWith(`${baseUrl}/api/marketing/conversion/${clickId}?`),
  );
  await reader.getByRole("link", { name: "Sign up" }).click();
  await expect(reader.getByRole("heading", { name: "Thanks for signing up" })).toBeVisible();
  const pixel = await conversion;
  expect(pixel.status()).toBe(200);
  expect(new URL(pixel.url()).searchParams.get("type")).toBe("signup");
  expect(new URL(pixel.url()).searchParams.get("org")).toBe(b.organizationId);

  // Stripe without code: on B's pricing page the click script hands the click id to Stripe's
  // Payment Link, pricing table and a buy button added later, so Checkout carries it.
  await reader.goto(fixtureUrl(`/pricing?org=${b.organizationId}`, b.domain));
  await expect(reader.getByRole("link", { name: "Buy now" })).toHaveAttribute(
    "href",
    `https://buy.stripe.com/test_fixture?client_reference_id=${clickId}`,
  );
  await expect(reader.locator("stripe-pricing-table")).toHaveAttribute(
    "client-reference-id",
    clickId as string,
  );
  await expect(reader.locator("stripe-buy-button")).toHaveAttribute("client-reference-id", clickId as string);

  // Both sides see it: A sent a click and a lead, B received them.
  await expect.poll(async () => (await metricsOf(request, a.token, "clicks")).sent).toBe(1);
  await expect.poll(async () => (await metricsOf(request, b.token, "clicks")).received).toBe(1);
  await expect.poll(async () => (await metricsOf(request, a.token, "leads")).sent).toBe(1);
  await expect.poll(async () => (await metricsOf(request, b.token, "leads")).received).toBe(1);
  // And only in that direction.
  expect((await metricsOf(request, a.token, "clicks")).received).toBe(0);
  expect((await metricsOf(request, b.token, "leads")).sent).toBe(0);

  // Each organization's overview shows it: the cards, the recent activity and today's point on the chart.
  const stat = (id: string) => page.locator(`[data-stat="${id}"]`).getByTestId("stat-value");
  await page.goto("/dashboard");
  await expect(stat("clicks-sent")).toHaveText("1");
  await expect(stat("leads-sent")).toHaveText("1");
  await expect(stat("clicks-received")).toHaveText("0");
  const activity = page.getByTestId("recent-activity");
  await expect(
    activity.getByTestId("activity-item").filter({ hasText: `Click sent to ${bName}` }),
  ).toHaveCount(1);
  await expect(
    activity.getByTestId("activity-item").filter({ hasText: `Lead (signup) sent to ${bName}` }),
  ).toHaveCount(1);
  await expect(activity.getByText("No recent activity to show.")).toHaveCount(0);
  await expect(page.getByTestId("daily-chart")).toBeVisible();

  await signIn(page, b.token);
  await page.goto("/dashboard");
  await expect(stat("clicks-received")).toHaveText("1");
  await expect(stat("leads-received")).toHaveText("1");
  await expect(stat("leads-sent")).toHaveText("0");
  await expect(
    page
      .getByTestId("recent-activity")
      .getByTestId("activity-item")
      .filter({ hasText: "Lead (signup) received from" }),
  ).toHaveCount(1);
});
