import { Webhook } from "standardwebhooks";
import { createOnboardedAccount } from "./accounts";
import { expect, test } from "./fixtures";
import { signIn, toast } from "./ui";
import { signatureHeaders, startWebhookReceiver } from "./webhook-receiver";

const EMPTY = "No webhook endpoints yet. Add one to send events to your own tools.";

/** What a visitor on a phone would have to scroll sideways: nothing. */
async function expectNoSidewaysScroll(page: import("@playwright/test").Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test("an admin adds a webhook endpoint, copies its secret once, receives a signed test event, reads the deliveries, disables, rotates and deletes it", async ({
  page,
  context,
  request,
}, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const receiver = await startWebhookReceiver();
  try {
    const account = await createOnboardedAccount(request, "webhooks");
    await signIn(page, account.token);
    await page.goto("/dashboard/settings?tab=api");
    await expect(page.getByRole("tab", { name: "API Keys & Webhooks", selected: true })).toBeVisible();
    await expect(page.getByText(EMPTY)).toBeVisible();

    // Add: the shared schema speaks first, then the endpoint is saved and its secret shown once.
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await expect(
      dialog.getByText("Enter the endpoint's URL, starting with https:// or http://"),
    ).toBeVisible();
    await dialog.getByLabel("Endpoint URL").fill(receiver.url);
    await dialog.getByRole("checkbox", { name: "relationship.created" }).click();
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await expect(toast(page, "Webhook endpoint added")).toBeVisible();
    const secret = (await dialog.getByTestId("webhook-secret").textContent())?.trim() ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    await dialog.getByRole("button", { name: "Copy" }).click();
    await expect(dialog.getByRole("button", { name: "Copied!" })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(secret);
    await page.screenshot({ path: testInfo.outputPath("webhooks-secret-once-desktop.png") });
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();

    const row = page.getByTestId("webhook-endpoint");
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId("webhook-url")).toHaveText(receiver.url);
    await expect(row.getByTestId("webhook-status")).toHaveText("Enabled");
    await expect(row.getByText("conversion.created")).toBeVisible();
    await expect(row.getByText("relationship.created")).toHaveCount(0);
    const masked = (await row.getByTestId("webhook-secret-masked").textContent()) ?? "";
    expect(masked).not.toBe(secret);
    expect(masked.endsWith(secret.slice(-4))).toBe(true);
    await expect(page.getByText(secret)).toHaveCount(0);

    // A test event reaches the receiver, signed with the secret that was shown and copied.
    await row.getByRole("button", { name: "Send test event" }).click();
    await expect(toast(page, "Test event queued")).toBeVisible();
    const test = await receiver.waitForMessage("webhook.test");
    expect(test.headers["webhook-id"]).toMatch(/^msg_/);
    expect(test.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const verified = new Webhook(copied).verify(test.body, signatureHeaders(test.headers));
    expect(verified).toMatchObject({ type: "webhook.test", data: { message: expect.any(String) } });
    const body = JSON.parse(test.body);
    expect(Object.keys(body)).toEqual(["type", "timestamp", "data"]);
    // As the API docs show it.
    expect(Object.keys(body.data)).toEqual(["message", "endpointId", "occurredAt"]);
    expect(() =>
      new Webhook(`whsec_${Buffer.from("not the secret").toString("base64")}`).verify(
        test.body,
        signatureHeaders(test.headers),
      ),
    ).toThrow();

    // The drawer shows the attempt; Refresh picks it up if it was recorded after the drawer opened.
    await row.getByRole("button", { name: "Deliveries" }).click();
    const drawer = page.getByRole("dialog");
    await expect(drawer.getByRole("heading", { name: "Deliveries" })).toBeVisible();
    const delivery = drawer.getByTestId("webhook-delivery").first();
    await expect(async () => {
      await drawer.getByRole("button", { name: "Refresh" }).click();
      await expect(delivery.getByTestId("delivery-status")).toHaveText("succeeded", { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(delivery).toContainText("webhook.test");
    await expect(delivery).toContainText("Attempt 1");
    await expect(delivery.getByTestId("delivery-response-status")).toHaveText("HTTP 200");
    await expect(delivery.getByTestId("delivery-response")).toHaveText("ok");
    await expect(delivery).toContainText(/\d+ ms/);
    await drawer.screenshot({ path: testInfo.outputPath("webhooks-deliveries-desktop.png") });
    await drawer.getByRole("button", { name: "Close deliveries" }).click();
    await expect(drawer).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: testInfo.outputPath("webhooks-settings-desktop.png"), fullPage: true });

    // Off, then on again: the server agrees each time.
    const headers = { authorization: `Bearer ${account.token}` };
    const enabledOnServer = async () =>
      ((await (await request.get("/api/webhooks", { headers })).json()) as { enabled: boolean }[])[0]
        ?.enabled;
    await row.getByRole("switch", { name: "Enabled" }).click();
    await expect(toast(page, "Webhook endpoint disabled")).toBeVisible();
    await expect(row.getByTestId("webhook-status")).toHaveText("Disabled");
    await expect(row.getByRole("switch", { name: "Enabled" })).not.toBeChecked();
    expect(await enabledOnServer()).toBe(false);
    await row.getByRole("switch", { name: "Enabled" }).click();
    await expect(toast(page, "Webhook endpoint enabled")).toBeVisible();
    await expect(row.getByTestId("webhook-status")).toHaveText("Enabled");
    expect(await enabledOnServer()).toBe(true);

    // Rotate: confirmed, the new secret shown once; for 24 hours messages carry both signatures.
    await row.getByRole("button", { name: "Rotate secret" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText("keeps working for 24 hours");
    await confirm.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = page.getByRole("dialog");
    await expect(rotated).toContainText("The old secret keeps working for 24 hours");
    const newSecret = (await rotated.getByTestId("webhook-secret").textContent())?.trim() ?? "";
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    await rotated.getByRole("button", { name: "Copy" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newSecret);
    await rotated.getByRole("button", { name: "Done" }).click();
    await expect(rotated).toBeHidden();
    // The masked secret now ends as the new one does (base64: `+` and `/` are literal here).
    const newEnd = newSecret.slice(-4).replace(/[+/=]/g, "\\$&");
    await expect(row.getByTestId("webhook-secret-masked")).toHaveText(new RegExp(`${newEnd}$`));

    const before = receiver.received.length;
    await row.getByRole("button", { name: "Send test event" }).click();
    const second = await receiver.waitForMessage("webhook.test", before);
    expect(String(second.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(new Webhook(newSecret).verify(second.body, signatureHeaders(second.headers))).toMatchObject({
      type: "webhook.test",
    });
    expect(new Webhook(secret).verify(second.body, signatureHeaders(second.headers))).toMatchObject({
      type: "webhook.test",
    });

    // Delete, after the confirmation.
    await row.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete endpoint" }).click();
    await expect(toast(page, "Webhook endpoint deleted")).toBeVisible();
    await expect(page.getByText(EMPTY)).toBeVisible();
    expect(await (await request.get("/api/webhooks", { headers })).json()).toEqual([]);
  } finally {
    await receiver.close();
  }
});

test("the webhooks screen, its dialogs, the deliveries drawer and the docs read at 390 px", async ({
  page,
  request,
}, testInfo) => {
  const receiver = await startWebhookReceiver();
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    const account = await createOnboardedAccount(request, "webhooks-narrow");
    const headers = { authorization: `Bearer ${account.token}` };
    const created = await request.post("/api/webhooks", {
      headers,
      data: {
        url: `${receiver.url}?source=buddy-and-a-rather-long-query-string`,
        events: ["conversion.created", "relationship.created"],
      },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await request.post(`/api/webhooks/${id}/test`, { headers })).status()).toBe(202);
    await receiver.waitForMessage("webhook.test");

    await signIn(page, account.token);
    await page.goto("/dashboard/settings?tab=api");
    const row = page.getByTestId("webhook-endpoint");
    await expect(row.getByTestId("webhook-status")).toHaveText("Enabled");
    for (const action of ["Send test event", "Deliveries", "Rotate secret", "Delete"]) {
      await expect(row.getByRole("button", { name: action })).toBeVisible();
    }
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath("webhooks-settings-390.png"), fullPage: true });

    await row.getByRole("button", { name: "Deliveries" }).click();
    const drawer = page.getByRole("dialog");
    await expect(async () => {
      await drawer.getByRole("button", { name: "Refresh" }).click();
      await expect(drawer.getByTestId("delivery-status").first()).toHaveText("succeeded", { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    const box = await drawer.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: testInfo.outputPath("webhooks-deliveries-390.png") });
    await drawer.getByRole("button", { name: "Close deliveries" }).click();

    await page.getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("checkbox", { name: "conversion.created" }).click();
    await dialog.getByRole("checkbox", { name: "conversion.refunded" }).click();
    await dialog.getByRole("checkbox", { name: "relationship.created" }).click();
    await dialog.getByRole("checkbox", { name: "overlap.completed" }).click();
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await expect(dialog.getByText("Choose at least one event")).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("webhooks-add-dialog-390.png") });
    await dialog.getByRole("button", { name: "Cancel" }).click();

    await page.goto("/dashboard/api-docs?tab=webhooks");
    await expect(page.getByRole("tab", { name: "Webhooks & Exports", selected: true })).toBeVisible();
    await expect(page.getByTestId("webhook-event")).toHaveCount(5);
    await expectNoSidewaysScroll(page);
    // Card by card: a whole page of docs is too tall to read in one picture.
    const cards = page.locator(
      "[data-testid=webhooks-guide], [data-testid=webhook-event], [data-testid=webhook-signatures], [data-testid=webhook-retries], [data-testid=exports-guide]",
    );
    await expect(cards).toHaveCount(9);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (let index = 0; index < 8; index++) {
        await cards
          .nth(index)
          .screenshot({ path: testInfo.outputPath(`api-docs-webhooks-${width}-${index}.png`) });
      }
    }
  } finally {
    await receiver.close();
  }
});
