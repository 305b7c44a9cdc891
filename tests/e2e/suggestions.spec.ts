import type { Page } from "@playwright/test";
import { createOnboardedAccount } from "./accounts";
import { expect, test } from "./fixtures";
import { relationshipsOf } from "./relationships-api";
import { signIn, toast, uniqueName } from "./ui";

const suggestionCards = (page: Page) => page.getByTestId("suggestion-card");
const suggestionCard = (page: Page, name: string) =>
  suggestionCards(page).filter({ has: page.getByRole("heading", { name, exact: true }) });

/** A help-desk company: the catalog suggests its competitors and complementary tools. */
const HELP_DESK = { description: "A help desk for support teams answering customer tickets." };

async function openSuggestions(page: Page, token: string) {
  await signIn(page, token);
  await page.goto("/dashboard/suggestions");
}

/** The first suggestion on the page, and its company's name. */
async function firstSuggestion(page: Page) {
  const card = suggestionCards(page).first();
  await expect(card).toBeVisible();
  const name = ((await card.getByRole("heading").textContent()) ?? "").trim();
  return { card: suggestionCard(page, name), name };
}

test("a company of the same kind already on Buddy is suggested as a Platform User, and Add as Competitor blocks it", async ({
  page,
  request,
}) => {
  const peerName = uniqueName("Shopcraft");
  await createOnboardedAccount(request, "shopcraft", {
    companyName: peerName,
    description: "An e-commerce platform to run online stores for independent shops.",
  });
  const account = await createOnboardedAccount(request, "shopbird", {
    companyName: uniqueName("Shopbird"),
    description: "An e-commerce storefront platform for independent shops.",
  });
  await openSuggestions(page, account.token);

  const peer = suggestionCard(page, peerName);
  await expect(peer).toBeVisible();
  await expect(peer.getByText("Platform User", { exact: true })).toBeVisible();
  await expect(peer.getByText("E-commerce Platforms", { exact: true })).toBeVisible();
  for (const action of ["Add as Competitor", "Add as Buddy", "Remove Suggestion"]) {
    await expect(peer.getByRole("button", { name: action })).toBeVisible();
  }
  // A catalog company that has not signed up carries no badge.
  const shopify = suggestionCard(page, "Shopify");
  await expect(shopify).toBeVisible();
  await expect(shopify.getByText("Platform User", { exact: true })).toHaveCount(0);

  // The search box narrows the list.
  const search = page.getByRole("searchbox", { name: "Search", exact: true });
  await search.fill(peerName.toUpperCase());
  await expect(suggestionCards(page)).toHaveCount(1);
  await search.fill("");

  await peer.getByRole("button", { name: "Add as Competitor" }).click();
  await expect(toast(page, "Added as competitor")).toBeVisible();
  await expect(peer).toHaveCount(0);
  await expect(suggestionCards(page).first()).toBeVisible();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Block List" }).click();
  await expect(page.getByTestId("relationship-card").filter({ hasText: peerName })).toBeVisible();
});

test("Add as Buddy turns a suggestion into an active Buddy", async ({ page, request }) => {
  const account = await createOnboardedAccount(request, "helpdesk-buddy", {
    companyName: uniqueName("Helpwise"),
    ...HELP_DESK,
  });
  await openSuggestions(page, account.token);
  const { card, name } = await firstSuggestion(page);

  await card.getByRole("button", { name: "Add as Buddy" }).click();
  await expect(toast(page, "Added as Buddy")).toBeVisible();
  await expect(card).toHaveCount(0);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Buddies" }).click();
  const buddy = page.getByTestId("relationship-card").filter({ hasText: name });
  await expect(buddy).toBeVisible();
  await expect(buddy.getByTestId("status-badge")).toHaveAttribute("data-colour", "green");
  const active = (await relationshipsOf(request, account.token)).filter((r) => r.status === "active");
  expect(active.map((r) => [r.type, r.targetOrg.name])).toEqual([["complement", name]]);
});

test("a removed suggestion stays gone after Refresh", async ({ page, request }) => {
  const account = await createOnboardedAccount(request, "helpdesk-remove", {
    companyName: uniqueName("Helpwise"),
    ...HELP_DESK,
  });
  await openSuggestions(page, account.token);
  const { card, name } = await firstSuggestion(page);

  await card.getByRole("button", { name: "Remove Suggestion" }).click();
  await expect(toast(page, "Suggestion removed")).toBeVisible();
  await expect(card).toHaveCount(0);

  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(toast(page, "Successfully refreshed suggestions")).toBeVisible();
  await expect(suggestionCards(page).first()).toBeVisible();
  await expect(card).toHaveCount(0);
  await page.reload();
  await expect(suggestionCards(page).first()).toBeVisible();
  await expect(card).toHaveCount(0);
  expect((await relationshipsOf(request, account.token)).map((r) => r.targetOrg.name)).not.toContain(name);
});

test("a company the catalog cannot place gets no suggestions, even after Refresh", async ({
  page,
  request,
}) => {
  const account = await createOnboardedAccount(request, "unplaceable", {
    companyName: uniqueName("Qwzx"),
    description: "Lorem ipsum dolor sit amet, consectetur adipiscing.",
  });
  await openSuggestions(page, account.token);
  await expect(page.getByText("No suggestions available at the moment.")).toBeVisible();
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(toast(page, "Successfully refreshed suggestions")).toBeVisible();
  await expect(page.getByText("No suggestions available at the moment.")).toBeVisible();
  await expect(suggestionCards(page)).toHaveCount(0);
});
