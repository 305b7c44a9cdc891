import type { Page } from "@playwright/test";
import { createOnboardedAccount } from "./accounts";
import { createCollateral } from "./collateral-api";
import { fixtureUrl, localhostDomain } from "./fixture-site";
import { expect, test } from "./fixtures";
import { addRelationship } from "./relationships-api";
import { signIn, toast } from "./ui";

const cards = (page: Page) => page.getByTestId("collateral-card");
const card = (page: Page, name: string) =>
  cards(page).filter({ has: page.getByRole("heading", { name, exact: true }) });
const cardTitles = (page: Page) => cards(page).getByRole("heading");
const counters = (page: Page) => page.getByRole("dialog").getByTestId("character-count");

async function openMarketing(page: Page, token: string) {
  await signIn(page, token);
  await page.goto("/dashboard/marketing");
  await expect(page.getByRole("heading", { name: "Marketing Collateral", level: 1 })).toBeVisible();
}

test("New Collateral counts characters, requires the fields, previews the image and saves a draft", async ({
  page,
  request,
}) => {
  const account = await createOnboardedAccount(request, "collateral-new", {
    website: `https://${localhostDomain("collateral-new")}`,
  });
  await openMarketing(page, account.token);
  await expect(
    page.getByText("No collateral yet. Create your first call-to-action ad for your Buddies to share."),
  ).toBeVisible();

  await page.getByRole("button", { name: "New Collateral" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "New Collateral" })).toBeVisible();
  await expect(counters(page)).toHaveText(["0/25", "0/100", "0/25"]);
  // A new ad is a draft, and the dialog says who cannot see it yet.
  await expect(dialog.getByTestId("draft-note")).toHaveText(
    "This ad is a draft: Buddies see it once it is published. Publish it from its card once it is ready.",
  );

  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(dialog.getByText("Title is required")).toBeVisible();
  await expect(dialog.getByText("Description is required")).toBeVisible();
  await expect(dialog.getByText("Call to action text is required")).toBeVisible();
  await expect(dialog.getByText("Call to action URL must be a valid http(s) URL")).toBeVisible();

  await dialog.getByLabel("Title").fill("Launch week special");
  await dialog.getByLabel("Description").fill("Everything your team needs to ship faster, free for a month.");
  await dialog.getByLabel("Call to Action Text").fill("Claim the offer");
  await dialog.getByLabel("Call to Action URL").fill(`https://${account.domain}/launch`);
  await expect(counters(page)).toHaveText(["19/25", "60/100", "15/25"]);
  await expect(dialog.getByText("Title is required")).toHaveCount(0);

  // Title stops at 25 characters.
  await dialog.getByLabel("Title").fill("A title that is far too long for an ad");
  await expect(dialog.getByLabel("Title")).toHaveValue("A title that is far too l");
  await expect(counters(page).first()).toHaveText("25/25");
  await dialog.getByLabel("Title").fill("Launch week special");

  // The image preview: a placeholder until the value is a usable URL, then the image itself.
  const preview = dialog.getByTestId("image-preview");
  await expect(preview.getByTestId("collateral-image-placeholder")).toBeVisible();
  const imageUrl = fixtureUrl("/ad.png", account.domain);
  await dialog.getByLabel("Image URL").fill(imageUrl);
  const image = preview.getByRole("img", { name: "Image preview" });
  await expect(image).toHaveAttribute("src", imageUrl);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(preview.getByTestId("collateral-image-placeholder")).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await dialog.getByTestId("draft-note").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "/tmp/item7-draft-note-390.png" });
  await page.setViewportSize({ width: 1280, height: 720 });
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, "Saved as a draft: Buddies see it once it is published.")).toBeVisible();
  await page.screenshot({ path: "/tmp/item7-draft-saved-1280.png" });
  const created = card(page, "Launch week special");
  await expect(created).toHaveAttribute("data-status", "draft");
  await expect(created.getByTestId("collateral-status")).toHaveText(/draft/i);
  await expect(created.getByTestId("collateral-cta-url")).toHaveText(`${account.domain}/launch`);
  await expect(created.getByTestId("collateral-cta")).toHaveText("Claim the offer");
  await expect(created.getByRole("button", { name: "Publish" })).toBeVisible();

  // Stored: a reload shows it.
  await page.reload();
  await expect(card(page, "Launch week special")).toHaveAttribute("data-status", "draft");
});

test("Publish sorts first, Archive dims and sorts last, Edit renames and Delete removes after confirming", async ({
  page,
  request,
}) => {
  const account = await createOnboardedAccount(request, "collateral-life");
  for (const name of ["Alpha offer", "Bravo offer", "Charlie offer"]) {
    await createCollateral(request, account.token, { name });
  }
  await openMarketing(page, account.token);
  await expect(cardTitles(page)).toHaveText(["Alpha offer", "Bravo offer", "Charlie offer"]);

  await card(page, "Charlie offer").getByRole("button", { name: "Publish" }).click();
  await expect(card(page, "Charlie offer")).toHaveAttribute("data-status", "active");
  await expect(cardTitles(page)).toHaveText(["Charlie offer", "Alpha offer", "Bravo offer"]);
  await expect(card(page, "Charlie offer").getByTestId("collateral-status")).toHaveText(/active/i);

  await card(page, "Charlie offer").getByRole("button", { name: "Archive" }).click();
  await expect(card(page, "Charlie offer")).toHaveAttribute("data-status", "archived");
  await expect(cardTitles(page)).toHaveText(["Alpha offer", "Bravo offer", "Charlie offer"]);
  await expect(card(page, "Charlie offer")).toHaveCSS("opacity", "0.6");
  await expect(card(page, "Alpha offer")).toHaveCSS("opacity", "1");
  // An archived item publishes again.
  await expect(card(page, "Charlie offer").getByRole("button", { name: "Publish" })).toBeVisible();

  await card(page, "Alpha offer").getByRole("button", { name: "Edit" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Edit Collateral" })).toBeVisible();
  await expect(dialog.getByLabel("Title")).toHaveValue("Alpha offer");
  await dialog.getByLabel("Title").fill("Alpha offer, renamed");
  await expect(counters(page).first()).toHaveText("20/25");
  await dialog.getByRole("button", { name: "Update" }).click();
  await expect(dialog).toBeHidden();
  await expect(cardTitles(page)).toHaveText(["Alpha offer, renamed", "Bravo offer", "Charlie offer"]);

  await card(page, "Bravo offer").getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText('Are you sure you want to delete "Bravo offer"?');
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Collateral deleted successfully")).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(cardTitles(page)).toHaveText(["Alpha offer, renamed", "Charlie offer"]);

  await page.reload();
  await expect(cardTitles(page)).toHaveText(["Alpha offer, renamed", "Charlie offer"]);
});

test("'Generate with AI' fills every field within its limits", async ({ page, request }) => {
  const account = await createOnboardedAccount(request, "collateral-ai");
  await openMarketing(page, account.token);
  await page.getByRole("button", { name: "New Collateral" }).click();
  const dialog = page.getByRole("dialog");

  await dialog.getByRole("button", { name: "Generate with AI" }).click();
  await expect(dialog.getByLabel("Title")).not.toHaveValue("", { timeout: 20_000 });
  await expect(dialog.getByRole("button", { name: "Generate with AI" })).toBeEnabled();
  const value = (label: string) => dialog.getByLabel(label, { exact: true }).inputValue();
  const title = await value("Title");
  const description = await value("Description");
  const ctaText = await value("Call to Action Text");
  const ctaUrl = await value("Call to Action URL");
  expect(title.length).toBeGreaterThan(0);
  expect(title.length).toBeLessThanOrEqual(25);
  expect(description.length).toBeGreaterThan(0);
  expect(description.length).toBeLessThanOrEqual(100);
  expect(ctaText.length).toBeGreaterThan(0);
  expect(ctaText.length).toBeLessThanOrEqual(25);
  // SPEC §5: the generated call-to-action URL carries the UTM parameters.
  expect(new URL(ctaUrl).searchParams.get("utm_medium")).toBe("email");
  await expect(counters(page).first()).toHaveText(`${title.length}/25`);

  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, title)).toHaveAttribute("data-status", "draft");
});

test("on a Buddy's page without collateral, Generate writes an ad ready to copy", async ({
  page,
  request,
}) => {
  const sharer = await createOnboardedAccount(request, "generate-a");
  const buddy = await createOnboardedAccount(request, "generate-b", { companyName: "Generated Buddy" });
  const relationship = await addRelationship(request, sharer.token, {
    type: "complement",
    organizationId: buddy.organizationId,
  });
  await signIn(page, sharer.token);
  await page.goto(`/dashboard/tools/${relationship.id}`);
  await expect(
    page.getByText("No marketing collateral available. Generate some to get started."),
  ).toBeVisible();
  await page.getByRole("button", { name: "Generate", exact: true }).click();

  const item = page.getByTestId("tool-collateral-item");
  await expect(item).toHaveCount(1);
  for (const name of ["Copy HTML", "Copy Text", "Copy JSON"]) {
    await expect(item.getByRole("button", { name })).toBeEnabled();
  }
  await expect(
    page.getByText("No marketing collateral available. Generate some to get started."),
  ).toHaveCount(0);
  // Stored for the Buddy: it is there again after a reload.
  await page.reload();
  await expect(page.getByTestId("tool-collateral-item")).toHaveCount(1);
});
