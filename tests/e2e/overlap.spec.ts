import type { Browser, Page } from "@playwright/test";
import { createOnboardedAccount } from "./accounts";
import { expect, test } from "./fixtures";
import { addRelationship } from "./relationships-api";
import { signIn, toast, uniqueName } from "./ui";

/**
 * CONTRACT §11, end to end in two browsers: two Buddies paste or upload their customer lists
 * (1,000 and 1,200 domains, 137 in common), one starts a comparison on the other's page, the other
 * takes part when an admin there opens Buddy, and both read 137. The lists never leave the pages:
 * the server sees blinded points only (overlap-privacy.api.test.ts looks for them).
 */
const domains = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}-${i}.com`);

async function pageFor(browser: Browser, token: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, token);
  return page;
}

test("two Buddies compare customer lists and both see the same count", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const run = Date.now().toString(36);
  const common = domains(`shared-${run}`, 137);
  // Written as a CRM export would: URLs, capitals, a header, repeats.
  const quillList = [...domains(`quill-${run}`, 863), ...common].map((domain, i) =>
    i % 3 === 0 ? `https://www.${domain.toUpperCase()}/pricing` : domain,
  );
  const inkList = [...common, ...domains(`ink-${run}`, 1_063)];

  const quillName = uniqueName("Quillmail");
  const inkName = uniqueName("Inkwell");
  const quill = await createOnboardedAccount(request, "quill", { companyName: quillName });
  const ink = await createOnboardedAccount(request, "ink", { companyName: inkName });
  const quillToInk = await addRelationship(request, quill.token, {
    type: "complement",
    organizationId: ink.organizationId,
  });
  const inkToQuill = await addRelationship(request, ink.token, {
    type: "complement",
    organizationId: quill.organizationId,
  });

  const quillPage = await pageFor(browser, quill.token);
  const inkPage = await pageFor(browser, ink.token);

  // Quillmail pastes its list; Inkwell uploads a CSV.
  await quillPage.goto("/dashboard/settings?tab=overlap");
  const quillCustomers = quillPage.getByTestId("overlap-list-customers");
  await quillCustomers
    .getByLabel("Paste domains or a CSV")
    .fill(`Website\n${quillList.join("\n")}\n${common[0]}`);
  await quillCustomers.getByRole("button", { name: "Save customers" }).click();
  await expect(toast(quillPage, "Customers: 1,000 domains kept in this browser")).toBeVisible();
  await expect(quillCustomers.getByText("1,000 domains in this browser")).toBeVisible();

  await inkPage.goto("/dashboard/settings?tab=overlap");
  const inkCustomers = inkPage.getByTestId("overlap-list-customers");
  await inkCustomers.locator('input[type="file"]').setInputFiles({
    name: "customers.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(
      `Company,Website\n${inkList.map((domain, i) => `Account ${i},${domain}`).join("\n")}\n`,
    ),
  });
  await expect(inkCustomers.getByText("1,200 domains in this browser")).toBeVisible();

  // Quillmail starts the comparison on Inkwell's page.
  await quillPage.goto(`/dashboard/tools/${quillToInk.id}`);
  const quillCard = quillPage.getByTestId("partner-overlap");
  await expect(quillCard.getByText(`No comparison with ${inkName} yet.`)).toBeVisible();
  await quillCard.getByRole("button", { name: "Compare lists" }).click();
  await expect(
    toast(quillPage, `Comparison started: it finishes when an admin of ${inkName} next opens Buddy`),
  ).toBeVisible();
  await expect(quillCard.getByText(`waiting for ${inkName}`)).toBeVisible();

  // Inkwell's admin opens Buddy: asked once, takes part.
  await inkPage.goto("/dashboard");
  const asked = inkPage.getByTestId("overlap-participant");
  await expect(asked).toContainText(`${quillName} asks to compare its customers with your customers`);
  await asked.getByRole("button", { name: "Take part" }).click();

  // Quillmail's browser finishes the run on its next look, and both read the same count.
  const sentence = (partner: string) => `137 of your customers are ${partner} customers`;
  await quillPage.reload();
  await expect(quillCard.getByTestId("overlap-sentence")).toHaveText(sentence(inkName), { timeout: 30_000 });
  await inkPage.goto(`/dashboard/tools/${inkToQuill.id}`);
  await expect(inkPage.getByTestId("overlap-sentence")).toHaveText(sentence(quillName), { timeout: 30_000 });
  await expect(inkPage.getByTestId("partner-overlap").getByText(/^Compared on /)).toBeVisible();
});
