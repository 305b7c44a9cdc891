import { expect, type Locator, type Page } from "@playwright/test";

/** Signs the browser in as an account made through the API: the SPA reads the token from storage. */
export async function signIn(page: Page, token: string) {
  await page.goto("/auth");
  await page.evaluate((value) => localStorage.setItem("token", value), token);
}

/** A sonner notification with exactly this title (they stay about 3 seconds). */
export function toast(page: Page, text: string): Locator {
  return page.locator("[data-sonner-toast]").getByText(text, { exact: true });
}

/**
 * A company name no other test (or repeat) uses, short enough for the 25-character limit:
 * `prefix` plus a space and six characters.
 */
export function uniqueName(prefix: string): string {
  const suffix = `${Date.now().toString(36).slice(-3)}${Math.floor(Math.random() * 36 ** 3)
    .toString(36)
    .padStart(3, "0")}`;
  const name = `${prefix} ${suffix}`;
  if (name.length > 25) throw new Error(`"${name}" is longer than 25 characters`);
  return name;
}

/** A domain no other test uses, e.g. `journey-k3f9a1.example.org` (not example.com, a listed free-mail domain). */
export function uniqueDomain(label: string): string {
  return `${uniqueName(label).toLowerCase().replace(/\s+/g, "-")}.example.org`;
}

/** Picks an option in one of the app's (Radix) selects by the field's label. */
export async function chooseOption(page: Page, label: string, option: string) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
  await expect(page.getByRole("combobox", { name: label })).toHaveText(option);
}
