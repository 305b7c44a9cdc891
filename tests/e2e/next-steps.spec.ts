import Stripe from "stripe";
import { createOnboardedAccount } from "./accounts";
import { type CollateralRecord, createCollateral } from "./collateral-api";
import { expect, test } from "./fixtures";
import { addRelationship } from "./relationships-api";
import { signIn, uniqueName } from "./ui";

const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const SIGNING_SECRET = "whsec_e2eNextStepsSigningSecret0123456789";
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const STEPS = ["add_buddy", "publish_ad", "share_ad", "install_tracking", "connect_stripe"] as const;

/**
 * Issue 37, after set-up: the overview's "Next steps" tick themselves from what the organization
 * does (through the app, the API, a reader's click, a lead, Stripe), and the card goes once all
 * are done; the Stripe card then shows whether Stripe's events arrive. At 1280 and 390 px.
 */
test("the Next steps card ticks each step from real data and goes once all are done; the Stripe card shows the last event", async ({
  page,
  request,
}) => {
  const org = await createOnboardedAccount(request, "steps-org", { companyName: uniqueName("Steps") });
  const partner = await createOnboardedAccount(request, "steps-partner", {
    companyName: uniqueName("Partner"),
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, org.token);
  await page.goto("/dashboard");

  const card = page.getByTestId("next-steps");
  const step = (id: (typeof STEPS)[number]) => card.locator(`[data-step="${id}"]`);
  const expectDone = async (done: readonly (typeof STEPS)[number][]) => {
    for (const id of STEPS)
      await expect(step(id), id).toHaveAttribute("data-done", String(done.includes(id)));
    await expect(card).toContainText(`${done.length} of 5 done`);
  };
  await expect(card.getByRole("heading", { name: "Next steps" })).toBeVisible();
  await expectDone([]);
  await page.screenshot({ path: "/tmp/item7-next-steps-0-1280.png", fullPage: true });

  // Each step links to where it is done. A Buddy added there ticks the first on the way back.
  await step("add_buddy")
    .getByRole("link", { name: /Add a Buddy/ })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/tools$/);
  await addRelationship(request, org.token, { type: "complement", organizationId: partner.organizationId });
  // The steps are fresh for 3 s; coming back later asks again, without a reload.
  await page.waitForTimeout(3_100);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }).click();
  await expectDone(["add_buddy"]);

  // A draft is not published; publishing it ticks the second.
  const own = await createCollateral(request, org.token, { name: "Our own ad", status: "draft" });
  await page.reload();
  await expectDone(["add_buddy"]);
  const published = await request.patch(`/api/marketing/collateral/${own.id}`, {
    headers: bearer(org.token),
    data: { status: "active" },
  });
  expect(published.status()).toBe(200);
  await page.reload();
  await expectDone(["add_buddy", "publish_ad"]);

  // A reader follows the organization's link to the partner's ad: shared, and seen by a person.
  await createCollateral(request, partner.token, { name: "The partner's ad", status: "active" });
  const follow = async (token: string, advertiserId: string) => {
    const list = await request.get(`/api/marketing/collateral?organizationId=${advertiserId}`, {
      headers: bearer(token),
    });
    const [ad] = (await list.json()) as CollateralRecord[];
    const followed = await request.get(ad?.trackedUrl ?? "", {
      maxRedirects: 0,
      headers: { "user-agent": BROWSER },
    });
    expect(followed.status()).toBe(302);
    return new URL(followed.headers().location ?? "").searchParams.get("bclickid") ?? "";
  };
  await follow(org.token, partner.organizationId);
  await page.reload();
  await expectDone(["add_buddy", "publish_ad", "share_ad"]);

  // The partner sends a reader to the organization's ad, whose site's scripts record the signup.
  await addRelationship(request, partner.token, { type: "complement", organizationId: org.organizationId });
  const clickId = await follow(partner.token, org.organizationId);
  expect(clickId).toBeTruthy();
  const lead = await request.get(
    `/api/marketing/conversion/${clickId}?type=signup&org=${org.organizationId}`,
  );
  expect(lead.status()).toBe(200);
  await page.reload();
  await expectDone(["add_buddy", "publish_ad", "share_ad", "install_tracking"]);
  await page.screenshot({ path: "/tmp/item7-next-steps-4-1280.png", fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "/tmp/item7-next-steps-4-390.png", fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // The last step's link leads to the Stripe card; connecting there ends the card.
  await step("connect_stripe")
    .getByRole("link", { name: /Connect Stripe/ })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/settings\?tab=install$/);
  const stripe = page.getByTestId("connect-stripe");
  await stripe.getByLabel("Signing secret").fill(SIGNING_SECRET);
  await stripe.getByRole("button", { name: "Connect Stripe" }).click();
  await expect(stripe.getByTestId("stripe-status")).toHaveText("Connected");
  await expect(stripe.getByTestId("stripe-last-event")).toContainText("No event yet");
  await expect(stripe.getByText(/Select the events Buddy needs/)).toContainText("checkout.session.completed");
  await stripe.getByTestId("stripe-last-event").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "/tmp/item7-stripe-no-event-390.png" });

  // An event signed with the pasted secret: the card shows it arrived.
  const webhookUrl = (await stripe.getByLabel("Stripe webhook URL").textContent())?.trim() ?? "";
  const payload = JSON.stringify({
    id: `evt_e2e_steps_${Date.now()}`,
    object: "event",
    type: "customer.created",
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: "cus_e2e_steps", object: "customer" } },
  });
  const delivered = await request.post(webhookUrl, {
    headers: {
      "content-type": "application/json",
      "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret: SIGNING_SECRET }),
    },
    data: payload,
  });
  expect(delivered.status(), await delivered.text()).toBe(200);
  await page.reload();
  await expect(stripe.getByTestId("stripe-last-event")).toHaveText("Last event received just now");
  await stripe.getByTestId("stripe-last-event").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "/tmp/item7-stripe-last-event-390.png" });

  // Every step done: the overview has no card left.
  const answered = page.waitForResponse((response) => response.url().endsWith("/api/onboarding/next-steps"));
  await page.goto("/dashboard");
  expect((await (await answered).json()).steps.every((s: { done: boolean }) => s.done)).toBe(true);
  await expect(page.getByTestId("stat-card").first()).toBeVisible();
  await expect(page.getByTestId("next-steps")).toHaveCount(0);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: "/tmp/item7-next-steps-done-1280.png" });
});
