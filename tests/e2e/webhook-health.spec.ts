import { Webhook } from "standardwebhooks";
import { createOnboardedAccount } from "./accounts";
import { expect, test } from "./fixtures";
import { signIn, toast } from "./ui";
import { signatureHeaders, startWebhookReceiver } from "./webhook-receiver";

/** What a visitor on a phone would have to scroll sideways: nothing. */
async function expectNoSidewaysScroll(page: import("@playwright/test").Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/**
 * Issue 37, webhook health, at a desktop's width and a phone's: an endpoint answering 500 shows it
 * is failing while Buddy retries, the test event's outcome appears once its attempt is made, the
 * drawer shows what was sent and answered, and Resend sends the same message again.
 */
for (const width of [1280, 390]) {
  test(`an endpoint answering 500 shows as failing, with the test's outcome, the payload and Resend (${width} px)`, async ({
    page,
    request,
  }, testInfo) => {
    const receiver = await startWebhookReceiver();
    try {
      await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
      const account = await createOnboardedAccount(request, `webhook-health-${width}`);
      const headers = { authorization: `Bearer ${account.token}` };
      const created = await request.post("/api/webhooks", {
        headers,
        data: { url: receiver.url, events: ["conversion.created"] },
      });
      expect(created.status()).toBe(201);
      const { secret } = (await created.json()) as { secret: string };
      receiver.answerWith(500);

      await signIn(page, account.token);
      await page.goto("/dashboard/settings?tab=api");
      const row = page.getByTestId("webhook-endpoint");
      await expect(row.getByTestId("webhook-status")).toHaveText("Enabled");

      // The test event fails: its outcome appears in the row, and the endpoint is failing since then.
      await row.getByRole("button", { name: "Send test event" }).click();
      await expect(toast(page, "Test event queued")).toBeVisible();
      const outcome = row.getByTestId("webhook-message-outcome");
      await expect(outcome).toHaveText("Test event failed: HTTP 500. Buddy retries it.", { timeout: 25_000 });
      const status = row.getByTestId("webhook-status");
      await expect(status).toHaveText(/^Failing since \w{3} \d{1,2}, \d{4}, \d{1,2}:\d\d:\d\d [AP]M$/);
      await expect(status).toHaveAttribute("data-state", "failing");
      await expect(row.getByRole("switch", { name: "Enabled" })).toBeChecked();
      await expectNoSidewaysScroll(page);
      await row.screenshot({ path: `/tmp/webhook-health-${width}-failing.png` });
      await row.screenshot({ path: testInfo.outputPath(`webhook-health-${width}-failing.png`) });

      // The drawer: the body sent, as signed, and what the receiver answered.
      await row.getByRole("button", { name: "Deliveries" }).click();
      const drawer = page.getByRole("dialog");
      const failed = drawer.getByTestId("webhook-delivery").filter({ hasText: "HTTP 500" }).first();
      await expect(failed.getByTestId("delivery-status")).toHaveText("failed");
      const payload = failed.getByTestId("delivery-payload");
      await payload.locator("summary").click();
      await expect(payload.locator("pre")).toContainText('"type": "webhook.test"');
      await expect(payload.locator("pre")).toContainText('"message": "This is a test event from Buddy.');
      const response = failed.getByTestId("delivery-response-full");
      await response.locator("summary").click();
      await expect(response.locator("pre")).toHaveText("receiver is down");
      const box = await drawer.boundingBox();
      expect(box?.width).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `/tmp/webhook-health-${width}-payload.png` });

      // Fixed: Resend sends the same message again, and the drawer says how it went.
      receiver.answerWith(200);
      const before = receiver.received.length;
      await failed.getByRole("button", { name: /^Resend webhook\.test, attempt \d+$/ }).click();
      await expect(toast(page, "Message queued to be sent again")).toBeVisible();
      await expect(drawer.getByTestId("webhook-message-outcome")).toHaveText(
        /^Resent message delivered: HTTP 200 in \d+ ms$/,
        { timeout: 25_000 },
      );
      await expect.poll(() => receiver.received.length).toBeGreaterThan(before);
      const ids = new Set(receiver.received.map((message) => String(message.headers["webhook-id"])));
      expect(ids.size).toBe(1);
      const resent = receiver.received.at(-1);
      if (!resent) throw new Error("nothing resent");
      expect(new Webhook(secret).verify(resent.body, signatureHeaders(resent.headers))).toMatchObject({
        type: "webhook.test",
      });
      expect(resent.body).toBe(receiver.received[0]?.body);
      await expect(drawer.getByTestId("delivery-status").first()).toHaveText("succeeded");
      await page.screenshot({ path: `/tmp/webhook-health-${width}-resent.png` });
      await drawer.getByRole("button", { name: "Close deliveries" }).click();

      // Healthy again.
      await expect(status).toHaveText("Enabled");
      await expectNoSidewaysScroll(page);
      await row.screenshot({ path: `/tmp/webhook-health-${width}-healthy.png` });
    } finally {
      await receiver.close();
    }
  });
}
