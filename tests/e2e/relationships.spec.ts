import type { Page } from "@playwright/test";
import { createOnboardedAccount } from "./accounts";
import { expect, test } from "./fixtures";
import { mailCount, uniqueEmail, waitForLink } from "./mailbox";
import { addRelationship, relationshipsOf, searchOrganizations } from "./relationships-api";
import { signIn, toast, uniqueDomain, uniqueName } from "./ui";

const cards = (page: Page) => page.getByTestId("relationship-card");
const card = (page: Page, name: string) => cards(page).filter({ hasText: name });
const searchResults = (page: Page) => page.getByRole("list", { name: "Search results" });

/** Opens the add control ('Add Tool' or 'Add Competitor') and searches the platform. */
async function searchToAdd(page: Page, label: "Add Tool" | "Add Competitor", query: string) {
  await page.getByRole("button", { name: label }).click();
  await page.getByLabel("Search organizations").fill(query);
}

test("the Buddies page starts empty and Add Tool adds an organization found by name as an active Buddy", async ({
  page,
  request,
}) => {
  const account = await createOnboardedAccount(request, "add-tool");
  await signIn(page, account.token);
  await page.goto("/dashboard/tools");
  await expect(page.getByText("Add tools that integrate well with your product.")).toBeVisible();

  await searchToAdd(page, "Add Tool", "Ze");
  await expect(page.getByText("Enter at least 3 characters to search")).toBeVisible();
  await expect(searchResults(page)).toHaveCount(0);
  await page.getByLabel("Search organizations").fill("Zendesk");
  await expect(page.getByText("Enter at least 3 characters to search")).toHaveCount(0);
  const zendesk = searchResults(page).getByRole("button", { name: /Zendesk/ });
  await expect(zendesk.first()).toContainText("zendesk.com");
  await zendesk.filter({ hasText: "zendesk.com" }).first().click();

  await expect(toast(page, "Tool added successfully")).toBeVisible();
  await expect(cards(page)).toHaveCount(1);
  const added = card(page, "Zendesk");
  await expect(added).toContainText("zendesk.com");
  const badge = added.getByTestId("status-badge");
  await expect(badge).toHaveText(/active/i);
  await expect(badge).toHaveAttribute("data-colour", "green");
  // The control closed again.
  await expect(page.getByLabel("Search organizations")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Add Tool" })).toBeVisible();

  // It is stored: a reload shows it, and the server lists it as an active complement.
  await page.reload();
  await expect(card(page, "Zendesk")).toBeVisible();
  const stored = (await relationshipsOf(request, account.token)).filter((r) => r.status === "active");
  expect(stored.map((r) => [r.type, r.targetOrg.domain])).toEqual([["complement", "zendesk.com"]]);
});

test("the search box filters Buddies by name or website, whatever the case", async ({ page, request }) => {
  const account = await createOnboardedAccount(request, "filter-tools");
  await addRelationship(request, account.token, { type: "complement", name: "Zendesk", url: "zendesk.com" });
  await addRelationship(request, account.token, {
    type: "complement",
    name: "Intercom",
    url: "intercom.com",
  });
  await signIn(page, account.token);
  await page.goto("/dashboard/tools");
  await expect(cards(page)).toHaveCount(2);

  const search = page.getByRole("searchbox", { name: "Search", exact: true });
  await search.fill("ZENDESK");
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page)).toContainText("Zendesk");
  await search.fill("intercom.com");
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page)).toContainText("Intercom");
  await search.fill("no such tool");
  await expect(cards(page)).toHaveCount(0);
  await expect(page.getByText("No tools found matching your search.")).toBeVisible();
  await search.fill("");
  await expect(cards(page)).toHaveCount(2);
});

test("a Buddy's page shows its profile, and Invite mails the contact a link to register", async ({
  page,
  request,
}) => {
  const account = await createOnboardedAccount(request, "tool-detail");
  const buddy = await addRelationship(request, account.token, {
    type: "complement",
    name: "Intercom",
    url: "intercom.com",
  });
  await signIn(page, account.token);
  await page.goto("/dashboard/tools");
  await card(page, "Intercom").getByRole("link", { name: "Intercom", exact: true }).click();

  await expect(page).toHaveURL(new RegExp(`/dashboard/tools/${buddy.id}$`));
  await expect(page.getByRole("heading", { name: "Intercom", level: 1 })).toBeVisible();
  const profile = page.getByTestId("tool-profile");
  await expect(profile).toContainText("Company Profile");
  await expect(profile.getByRole("link", { name: /intercom\.com/ })).toBeVisible();
  await expect(profile.getByText(/^\d{1,2}\/10$/)).toBeVisible();

  const contact = uniqueEmail("contact");
  const before = mailCount();
  await page.getByRole("button", { name: "Invite" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Invite Intercom");
  await dialog.getByLabel("Contact email").fill(contact);
  await dialog.getByRole("button", { name: "Send Invitation" }).click();
  await expect(toast(page, "Invitation sent successfully")).toBeVisible();
  await expect(dialog).toBeHidden();

  const link = await waitForLink(contact, `${process.env.E2E_BASE_URL}/auth?tab=register`, before);
  expect(new URL(link).searchParams.get("email")).toBe(contact);
});

test("an unknown Buddy id says 'Tool not found'", async ({ page, request, consoleErrors }) => {
  consoleErrors.allowFailedRequest(404, "/api/relationships/00000000-0000-0000-0000-000000000000");
  const account = await createOnboardedAccount(request, "tool-missing");
  await signIn(page, account.token);
  await page.goto("/dashboard/tools/00000000-0000-0000-0000-000000000000");
  await expect(page.getByText("Tool not found")).toBeVisible();
});

test("Remove Tool takes the Buddy off the page for good", async ({ page, request }) => {
  const account = await createOnboardedAccount(request, "remove-tool");
  await addRelationship(request, account.token, { type: "complement", name: "Zendesk", url: "zendesk.com" });
  await signIn(page, account.token);
  await page.goto("/dashboard/tools");

  await card(page, "Zendesk").getByRole("button", { name: "Remove Tool" }).click();
  await expect(toast(page, "Tool removed")).toBeVisible();
  await expect(cards(page)).toHaveCount(0);
  await expect(page.getByText("Add tools that integrate well with your product.")).toBeVisible();
  await page.reload();
  await expect(page.getByText("Add tools that integrate well with your product.")).toBeVisible();
  await expect(cards(page)).toHaveCount(0);
});

test("a company not on Buddy yet is added through the new-organization form, which needs a name and a valid website", async ({
  page,
  request,
}) => {
  const account = await createOnboardedAccount(request, "new-org");
  const name = uniqueName("Newco");
  const domain = uniqueDomain("newco");
  await signIn(page, account.token);
  await page.goto("/dashboard/tools");

  await searchToAdd(page, "Add Tool", name);
  await expect(page.getByText("No organizations found.")).toBeVisible();
  await page.getByRole("button", { name: "Can't find it? Add a new company" }).click();
  const form = page.getByRole("form", { name: "New organization" });
  await form.getByLabel("Name").fill(name);
  await form.getByRole("button", { name: "Add Tool" }).click();
  await expect(form.getByText("Please enter a valid website")).toBeVisible();
  await form.getByLabel("Website").fill("not a website");
  await form.getByRole("button", { name: "Add Tool" }).click();
  await expect(form.getByText("Please enter a valid website")).toBeVisible();
  await expect(cards(page)).toHaveCount(0);

  await form.getByLabel("Website").fill(`https://${domain}/`);
  await form.getByRole("button", { name: "Add Tool" }).click();
  await expect(toast(page, "Tool added successfully")).toBeVisible();
  await expect(form).toHaveCount(0);
  const added = card(page, name);
  await expect(added).toContainText(domain);
  await expect(added.getByTestId("status-badge")).toHaveAttribute("data-colour", "green");

  // It is an organization now: the next search finds it.
  await searchToAdd(page, "Add Tool", name);
  await expect(searchResults(page).getByRole("button", { name: new RegExp(name) })).toBeVisible();
});

test("the Block List adds a competitor found by search and removes it again", async ({ page, request }) => {
  const account = await createOnboardedAccount(request, "block-list");
  await signIn(page, account.token);
  await page.goto("/dashboard/competitors");
  const empty = page.getByText("Add competitors to your block list to prevent mutual suggestions.");
  await expect(empty).toBeVisible();

  await searchToAdd(page, "Add Competitor", "Freshdesk");
  await searchResults(page)
    .getByRole("button", { name: /Freshdesk/ })
    .first()
    .click();
  await expect(toast(page, "Competitor added successfully")).toBeVisible();
  const blocked = card(page, "Freshdesk");
  await expect(blocked).toContainText("freshdesk.com");
  await expect(empty).toHaveCount(0);

  const remove = blocked.getByRole("button", { name: "Remove Competitor" });
  await remove.hover();
  await expect(page.getByRole("tooltip")).toHaveText("Remove Competitor");
  await remove.click();
  await expect(toast(page, "Competitor removed")).toBeVisible();
  await expect(cards(page)).toHaveCount(0);
  await expect(empty).toBeVisible();
  expect(await relationshipsOf(request, account.token)).toEqual([]);
});

test("a company on someone's block list can no longer find them when adding a tool, nor be found", async ({
  page,
  request,
}) => {
  const blockerName = uniqueName("Blocker");
  const blockedName = uniqueName("Blocked");
  const blocker = await createOnboardedAccount(request, "blocker", { companyName: blockerName });
  const blocked = await createOnboardedAccount(request, "blocked", { companyName: blockedName });
  await signIn(page, blocked.token);
  await page.goto("/dashboard/tools");

  // Before: each finds the other.
  await searchToAdd(page, "Add Tool", blockerName);
  await expect(searchResults(page).getByRole("button", { name: new RegExp(blockerName) })).toBeVisible();
  const [found] = await searchOrganizations(request, blocker.token, blockedName);
  expect(found?.name).toBe(blockedName);

  await addRelationship(request, blocker.token, {
    type: "competitor",
    organizationId: blocked.organizationId,
  });

  await page.reload();
  await searchToAdd(page, "Add Tool", blockerName);
  await expect(page.getByText("No organizations found.")).toBeVisible();
  await expect(searchResults(page)).toHaveCount(0);
  expect(await searchOrganizations(request, blocker.token, blockedName)).toEqual([]);
});
