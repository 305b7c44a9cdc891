import { readFile } from "node:fs/promises";
import Stripe from "stripe";
import { createOnboardedAccount } from "./accounts";
import { type CollateralRecord, createCollateral } from "./collateral-api";
import { expect, test } from "./fixtures";
import { addRelationship } from "./relationships-api";
import { signIn, toast, uniqueName } from "./ui";

const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const SIGNING_SECRET = "whsec_e2eRevenueSigningSecret0123456789";

/**
 * CONTRACT §8 end to end: the advertiser connects Stripe in Settings → Install, a reader sent by
 * the sharer buys through Stripe Checkout (the event signed as Stripe signs it), and both
 * organizations' overviews show the purchase in their Revenue card, on a desktop and on a phone.
 */
test("a purchase through Stripe shows as revenue received by the advertiser and sent by the sharer", async ({
  page,
  request,
}, testInfo) => {
  const sharer = await createOnboardedAccount(request, "revenue-a", { companyName: uniqueName("Sharer") });
  const advertiserName = uniqueName("Seller");
  const advertiser = await createOnboardedAccount(request, "revenue-b", { companyName: advertiserName });
  const toAdvertiser = await addRelationship(request, sharer.token, {
    type: "complement",
    organizationId: advertiser.organizationId,
  });
  await createCollateral(request, advertiser.token, { name: "Buy the seller's plan", status: "active" });

  // The advertiser connects Stripe: the webhook URL to paste into Stripe, and its signing secret.
  await signIn(page, advertiser.token);
  await page.goto("/dashboard/settings?tab=install");
  const card = page.getByTestId("connect-stripe");
  await expect(card.getByTestId("stripe-status")).toHaveText("Not connected");
  const webhookUrl = (await card.getByLabel("Stripe webhook URL").textContent())?.trim() ?? "";
  expect(webhookUrl).toMatch(new RegExp(`/api/integrations/stripe/webhook/${advertiser.organizationId}$`));
  await card.getByLabel("Signing secret").fill(SIGNING_SECRET);
  await card.getByRole("button", { name: "Connect Stripe" }).click();
  await expect(
    toast(page, "Stripe connected. Paste the webhook URL into your Stripe dashboard if you have not yet."),
  ).toBeVisible();
  await expect(card.getByTestId("stripe-status")).toHaveText("Connected");
  await expect(card.getByLabel("Signing secret")).toHaveValue("");
  // Connected is not yet working: no event signed with this secret has arrived.
  await expect(card.getByTestId("stripe-last-event")).toContainText("No event yet");
  await card.screenshot({ path: testInfo.outputPath("connect-stripe-desktop.png") });

  // A reader follows the sharer's tracked link to the advertiser's site: the click id Checkout carries.
  const list = await request.get(`/api/marketing/collateral?organizationId=${advertiser.organizationId}`, {
    headers: { authorization: `Bearer ${sharer.token}` },
  });
  const [ad] = (await list.json()) as CollateralRecord[];
  const followed = await request.get(ad?.trackedUrl ?? "", {
    maxRedirects: 0,
    headers: { "user-agent": BROWSER },
  });
  expect(followed.status()).toBe(302);
  const clickId = new URL(followed.headers().location ?? "").searchParams.get("bclickid");
  expect(clickId).toBeTruthy();

  // Stripe tells Buddy the Checkout completed: signed with the secret just pasted.
  const payload = JSON.stringify({
    id: `evt_e2e_${Date.now()}`,
    object: "event",
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: "cs_e2e",
        object: "checkout.session",
        client_reference_id: clickId,
        amount_total: 4999,
        currency: "usd",
        customer: "cus_e2e",
      },
    },
  });
  const delivered = await request.post(webhookUrl, {
    headers: {
      "content-type": "application/json",
      "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret: SIGNING_SECRET }),
    },
    data: payload,
  });
  expect(delivered.status(), await delivered.text()).toBe(200);

  // The card now shows that Stripe's events arrive.
  await page.reload();
  await expect(card.getByTestId("stripe-last-event")).toHaveText("Last event received just now");

  // The advertiser received it.
  await page.goto("/dashboard");
  const revenue = page.getByTestId("revenue-card");
  await expect(revenue.getByTestId("revenue-received").getByTestId("revenue-amount")).toHaveText(["$49.99"]);
  await expect(revenue.getByTestId("revenue-sent").getByTestId("revenue-amount")).toHaveCount(0);

  // The sharer sent it: on its overview, its chart, and on the advertiser's Buddy page, on a phone too.
  await signIn(page, sharer.token);
  await page.goto("/dashboard");
  await expect(revenue.getByTestId("revenue-sent").getByTestId("revenue-amount")).toHaveText(["$49.99"]);
  await expect(revenue.getByTestId("revenue-received").getByTestId("revenue-amount")).toHaveCount(0);
  // The sharer exports its conversions: the purchase, as sent, with its value in dollars.
  await page.getByRole("button", { name: "Export CSV" }).click();
  const exportDialog = page.getByRole("dialog");
  const downloading = page.waitForEvent("download");
  await exportDialog.getByRole("button", { name: "Download" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^conversions-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path()) ?? "", "utf8");
  expect(csv.split("\r\n")[0]).toBe(
    "id,occurred_at,direction,type,partner_id,partner_name,click_id,customer_id,value,currency,event_id,collateral_id,refunded",
  );
  expect(csv).toContain(`,sent,purchase,${advertiser.organizationId},`);
  expect(csv).toContain(`,${clickId},cus_e2e,49.99,USD,`);
  await expect(exportDialog).toBeHidden();

  const chart = page.getByTestId("daily-chart-card");
  await chart.getByRole("button", { name: "Revenue (USD)" }).click();
  await expect(chart.getByRole("img", { name: "Revenue in USD, last 30 days" })).toBeVisible();
  await chart.screenshot({ path: testInfo.outputPath("revenue-chart-desktop.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await revenue.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("revenue-overview-390.png"), fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await page.goto(`/dashboard/tools/${toAdvertiser.id}`);
  const pair = page.getByTestId("revenue-card");
  await expect(pair.getByRole("heading", { name: `Revenue with ${advertiserName}` })).toBeVisible();
  await expect(pair.getByTestId("revenue-sent").getByTestId("revenue-amount")).toHaveText(["$49.99"]);
  await page.screenshot({ path: testInfo.outputPath("revenue-buddy-390.png"), fullPage: true });

  // The API docs document the customer, the event id, the currency and Stripe's webhook.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/dashboard/api-docs");
  await page.getByRole("tab", { name: "Conversion Tracking" }).click();
  const call = page
    .getByTestId("api-operation")
    .filter({ hasText: "Record a conversion (server to server)" });
  for (const field of ["customerId", "eventId", "currency"])
    await expect(call.getByTestId("request-body-table").getByText(field, { exact: true })).toBeVisible();
  await expect(call.getByText(/Your idempotency key/)).toBeVisible();
  const webhook = page.getByTestId("api-operation").filter({ hasText: "Stripe webhook" });
  await expect(
    webhook.getByText(
      /checkout\.session\.completed, invoice\.paid, charge\.refunded, charge\.dispute\.created and/,
    ),
  ).toBeVisible();
  await webhook.screenshot({ path: testInfo.outputPath("api-docs-stripe-webhook.png") });
});
