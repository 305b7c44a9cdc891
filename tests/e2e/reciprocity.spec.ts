import type { APIRequestContext, Browser, Locator, Page, TestInfo } from "@playwright/test";
import { formatMoney } from "../../src/shared/money";
import { balanceSentence } from "../../src/shared/reciprocity";
import type { PartnerLedger, PartnersLedger } from "../../src/shared/reciprocity-schemas";
import { createOnboardedAccount } from "./accounts";
import { type CollateralRecord, createCollateral } from "./collateral-api";
import { expect, test } from "./fixtures";
import { addRelationship } from "./relationships-api";
import { signIn, uniqueName } from "./ui";

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The tracked link of the advertiser's one active ad, as the sharer gets it. */
async function trackedLinkOf(request: APIRequestContext, sharerToken: string, advertiserId: string) {
  const response = await request.get(`/api/marketing/collateral?organizationId=${advertiserId}`, {
    headers: bearer(sharerToken),
  });
  expect(response.status()).toBe(200);
  const [ad] = (await response.json()) as CollateralRecord[];
  expect(ad?.trackedUrl).toBeTruthy();
  return ad?.trackedUrl as string;
}

let visitors = 0;

/**
 * A reader follows a tracked link: each from a browser of its own (a repeat of the same visitor on
 * the same link within an hour would not count). Returns the click id the landing page gets.
 */
async function click(request: APIRequestContext, trackedUrl: string): Promise<string> {
  visitors += 1;
  const response = await request.get(trackedUrl, {
    maxRedirects: 0,
    headers: {
      "user-agent": `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.${visitors}.0 Safari/537.36`,
    },
  });
  expect(response.status()).toBe(302);
  const clickId = new URL(response.headers().location ?? "").searchParams.get("bclickid");
  expect(clickId).toBeTruthy();
  return clickId as string;
}

async function clicks(request: APIRequestContext, trackedUrl: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await click(request, trackedUrl));
  return ids;
}

/**
 * A sign-up: through the advertiser's conversion pixel on its thank-you page, or, when it carries
 * money, from the advertiser's server with its API key (the keyless pixel records leads only).
 */
async function lead(
  request: APIRequestContext,
  clickId: string,
  advertiser: { organizationId: string; token: string },
  money?: { value: number; currency: string },
) {
  if (!money) {
    const query = new URLSearchParams({ type: "signup", org: advertiser.organizationId });
    const response = await request.get(`/api/marketing/conversion/${clickId}?${query}`);
    expect(response.status(), await response.text()).toBe(200);
    return;
  }
  const created = await request.post("/api/api-keys", {
    headers: bearer(advertiser.token),
    data: { name: "Shop" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { key } = (await created.json()) as { key: string };
  const response = await request.post("/api/marketing/conversion", {
    headers: { "x-api-key": key },
    data: { clickId, type: "signup", ...money },
  });
  expect(response.status(), await response.text()).toBe(201);
}

async function ledgerOf(request: APIRequestContext, token: string, days: number): Promise<PartnerLedger[]> {
  const response = await request.get(`/api/metrics/partners?days=${days}`, { headers: bearer(token) });
  expect(response.status()).toBe(200);
  return ((await response.json()) as PartnersLedger).partners;
}

// The figures as the screens write them, from the API's numbers.
const count = (n: number, noun: string) => `${n.toLocaleString("en-US")} ${n === 1 ? noun : `${noun}s`}`;
/** A balance in the reader's words: what it sent more of, or received more of (clicks). */
const balanceWords = (n: number) =>
  n < 0 ? `Sent ${count(-n, "more click")}` : n > 0 ? `Received ${count(n, "more click")}` : "Even";
const weight = (w: number) => `×${new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 }).format(w)}`;
const weightSentence = (name: string, w: number) =>
  `${name}'s ads get ${new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 }).format(w)}× the usual share of your newsletter ad slots.`;
/** One amount, or the one empty amount ("—") where that side has none in the currency. */
const money = (totals: PartnerLedger["revenue"]["sent"], currency: string) => {
  const total = totals.find((entry) => entry.currency === currency);
  return total ? formatMoney(total.value, currency, "en-US") : "—";
};

type ShownRow = {
  id: string | null;
  name: string;
  href: string | null;
  given: [string, string];
  received: [string, string];
  balance: string;
  revenue: { currency: string; sent: string; received: string }[];
  adWeight: string;
};

/** What a Partners row (or stacked card) shows, as a screen reader would not need to guess. */
function expectedRow(partner: PartnerLedger, href: string | null): ShownRow {
  const currencies = [
    ...new Set([...partner.revenue.sent, ...partner.revenue.received].map((t) => t.currency)),
  ];
  return {
    id: partner.organizationId,
    name: partner.name,
    href,
    given: [count(partner.clicks.sent, "click"), count(partner.leads.sent, "lead")],
    received: [count(partner.clicks.received, "click"), count(partner.leads.received, "lead")],
    balance: balanceWords(partner.balance),
    revenue: currencies.sort().map((currency) => ({
      currency,
      sent: money(partner.revenue.sent, currency),
      received: money(partner.revenue.received, currency),
    })),
    adWeight: weight(partner.adWeight),
  };
}

async function shownRows(list: Locator): Promise<ShownRow[]> {
  return list.getByTestId("partner-row").evaluateAll((rows) =>
    rows.map((row) => {
      const text = (cell: string) => row.querySelector(`[data-cell="${cell}"]`)?.textContent ?? "";
      const name = row.querySelector('[data-cell="name"]');
      return {
        id: row.getAttribute("data-partner-id"),
        name: name?.textContent ?? "",
        href: name?.getAttribute("href") ?? null,
        given: [text("clicks-sent"), text("leads-sent")] as [string, string],
        received: [text("clicks-received"), text("leads-received")] as [string, string],
        balance: text("balance"),
        revenue: [...row.querySelectorAll('[data-cell="revenue"] li')].map((line) => {
          // The empty amount's dash, without the "none" said to screen readers.
          const amount = (side: string) => {
            const shown = line.querySelector(`[data-side="${side}"] [data-amount]`);
            return shown?.querySelector("[data-empty-amount]") ? "—" : (shown?.textContent ?? "");
          };
          return {
            currency: line.getAttribute("data-currency") ?? "",
            sent: amount("sent"),
            received: amount("received"),
          };
        }),
        adWeight: row.querySelector('[data-testid="ad-weight-value"]')?.textContent ?? "",
      };
    }),
  );
}

/** The Buddy page's ledger: each row's cell per window, a money cell as its lines. */
async function shownLedger(page: Page, days: number) {
  return page
    .getByTestId("partner-ledger-table")
    .locator("tbody tr")
    .evaluateAll(
      (rows, window) =>
        Object.fromEntries(
          rows.map((row) => {
            const cell = row.querySelector(`td[data-days="${window}"]`);
            const lines = [...(cell?.querySelectorAll("li") ?? [])].map((li) => li.textContent ?? "");
            return [row.getAttribute("data-row"), lines.length ? lines : [cell?.textContent ?? ""]];
          }),
        ),
      days,
    );
}

/** The ledger's rows: clicks and leads both ways and the balance; its revenue is the page's revenue card's. */
function expectedLedger(entry: PartnerLedger) {
  return {
    "clicks-sent": [count(entry.clicks.sent, "click")],
    "clicks-received": [count(entry.clicks.received, "click")],
    "leads-sent": [count(entry.leads.sent, "lead")],
    "leads-received": [count(entry.leads.received, "lead")],
    balance: [balanceWords(entry.balance)],
  };
}

/** The revenue card's lines of one side: currency, amount and sales. */
async function shownRevenue(card: Locator, side: "sent" | "received") {
  return card
    .getByTestId(`revenue-${side}`)
    .getByTestId("revenue-line")
    .evaluateAll((lines) =>
      lines.map((line) => [
        line.getAttribute("data-currency"),
        line.querySelector('[data-testid="revenue-amount"]')?.textContent,
        line.querySelector('[data-testid="revenue-sales"]')?.textContent,
      ]),
    );
}

/** Today's figures, as the chart's last day writes them in its tooltip. */
async function todaysTooltip(request: APIRequestContext, token: string) {
  const response = await request.get("/api/metrics/daily", { headers: bearer(token) });
  expect(response.status()).toBe(200);
  const days = (await response.json()) as {
    day: string;
    clicksSent: number;
    clicksReceived: number;
    leadsSent: number;
    leadsReceived: number;
  }[];
  const today = days.at(-1);
  expect(today).toBeDefined();
  const { clicksSent, clicksReceived, leadsSent, leadsReceived } = today as NonNullable<typeof today>;
  return [
    `Clicks sent${clicksSent}`,
    `Clicks received${clicksReceived}`,
    `Leads sent${leadsSent}`,
    `Leads received${leadsReceived}`,
  ];
}

/** On a touch screen (no hover, no keyboard): a tap on the chart's latest day shows its values. */
async function tapTheChart(browser: Browser, testInfo: TestInfo, token: string, expected: string[]) {
  const phone = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  try {
    const page = await phone.newPage();
    await signIn(page, token);
    await page.goto("/dashboard");
    const chart = page.getByTestId("daily-chart-card");
    await expect(chart.getByTestId("chart-day")).toHaveCount(30);
    await expect(chart.getByTestId("chart-tooltip")).toHaveCount(0);
    await chart.getByTestId("chart-day").last().tap();
    const tooltip = chart.getByTestId("chart-tooltip");
    await expect(tooltip).toBeVisible();
    await expect(tooltip.locator("li")).toHaveText(expected);
    // Inside the card, on a phone too.
    const [box, card] = [await tooltip.boundingBox(), await chart.boundingBox()];
    expect(box && card && box.x >= card.x && box.x + box.width <= card.x + card.width).toBe(true);
    await chart.screenshot({ path: testInfo.outputPath("chart-tap-390.png") });
  } finally {
    await phone.close();
  }
}

/**
 * A phone's width with the height of the whole page, for a screenshot: a card taller than the
 * screen is then taken in one piece, without the sticky header drawn over it.
 */
async function tallPhone(page: Page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 390, height: Math.max(844, height) });
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/**
 * CONTRACT §10 end to end: Home trades clicks both ways with its Buddy Mailer and receives some
 * from Chatter, which holds Home as a Buddy while Home does not hold it. Home's overview lists
 * both partners, and Mailer's Buddy page its ledger over 30 and 90 days, with exactly the figures
 * GET /api/metrics/partners answers, on a desktop and on a phone.
 */
test("the Partners table and a Buddy's ledger show the clicks, leads and revenue sent and received", async ({
  page,
  request,
  browser,
}, testInfo) => {
  const mailerName = uniqueName("Mailer");
  const chatterName = uniqueName("Chatter");
  const home = await createOnboardedAccount(request, "ledger-home", { companyName: uniqueName("Home") });
  const mailer = await createOnboardedAccount(request, "ledger-mailer", { companyName: mailerName });
  const chatter = await createOnboardedAccount(request, "ledger-chatter", { companyName: chatterName });
  const homeToMailer = await addRelationship(request, home.token, {
    type: "complement",
    organizationId: mailer.organizationId,
  });
  await addRelationship(request, mailer.token, { type: "complement", organizationId: home.organizationId });
  await addRelationship(request, chatter.token, { type: "complement", organizationId: home.organizationId });
  await createCollateral(request, home.token, { name: "Home's offer", status: "active" });
  await createCollateral(request, mailer.token, { name: "Mailer's offer", status: "active" });
  const strengthOf = async () => {
    const response = await request.get(`/api/relationships/${homeToMailer.id}`, {
      headers: bearer(home.token),
    });
    expect(response.status()).toBe(200);
    return ((await response.json()) as { strengthScore: number }).strengthScore;
  };
  const strengthBefore = await strengthOf();

  // Home's readers click Mailer's ad 9 times, one signs up for $49.99.
  const homeClicks = await clicks(
    request,
    await trackedLinkOf(request, home.token, mailer.organizationId),
    9,
  );
  await lead(request, homeClicks[0] as string, mailer, { value: 49.99, currency: "USD" });
  // Mailer's readers click Home's ad 4 times: two sign up, one paying €1,234.50.
  const homeAdFromMailer = await trackedLinkOf(request, mailer.token, home.organizationId);
  const mailerClicks = await clicks(request, homeAdFromMailer, 4);
  await lead(request, mailerClicks[0] as string, home, { value: 1234.5, currency: "EUR" });
  await lead(request, mailerClicks[1] as string, home);
  // Chatter's readers click Home's ad 3 times; one pays ¥5,000.
  const chatterClicks = await clicks(
    request,
    await trackedLinkOf(request, chatter.token, home.organizationId),
    3,
  );
  await lead(request, chatterClicks[2] as string, home, { value: 5000, currency: "JPY" });

  // What the API says, checked against the traffic above.
  const month = await ledgerOf(request, home.token, 30);
  const quarter = await ledgerOf(request, home.token, 90);
  expect(month.map((partner) => partner.organizationId)).toEqual([
    mailer.organizationId,
    chatter.organizationId,
  ]);
  const [mailerEntry, chatterEntry] = month as [PartnerLedger, PartnerLedger];
  expect(mailerEntry).toMatchObject({
    name: mailerName,
    clicks: { sent: 9, received: 4 },
    leads: { sent: 1, received: 2 },
    revenue: { sent: [{ currency: "USD", value: 49.99 }], received: [{ currency: "EUR", value: 1234.5 }] },
    balance: -5,
  });
  expect(chatterEntry).toMatchObject({
    name: chatterName,
    clicks: { sent: 0, received: 3 },
    leads: { sent: 0, received: 1 },
    revenue: { sent: [], received: [{ currency: "JPY", value: 5000 }] },
    balance: 3,
  });
  const expected = [
    // Home holds Mailer as a Buddy: its name leads to Mailer's page. Not Chatter's.
    expectedRow(mailerEntry, `/dashboard/tools/${homeToMailer.id}`),
    expectedRow(chatterEntry, null),
  ];
  // Mailer: 4 clicks for 9 (×0.74), and as much proof each way (a lead and a sale each, by key; the
  // pixel's sign-up proves nothing). Chatter: 3 clicks (×1.3) and a lead and a sale Home recorded (×1.67).
  expect(expected.map((row) => row.adWeight)).toEqual(["×0.74", "×2.17"]);

  // The overview on a desktop: the table, in the API's order, sortable.
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, home.token);
  await page.goto("/dashboard");
  const card = page.getByTestId("partners-card");
  const table = card.getByTestId("partners-table");
  await expect(table).toBeVisible();
  await expect(card.getByTestId("partner-cards")).toBeHidden();
  await expect(table.getByTestId("partner-row")).toHaveCount(2);
  expect(await shownRows(table)).toEqual(expected);
  await expect(table.getByRole("columnheader", { name: "Balance" })).not.toHaveAttribute("aria-sort");
  await table.getByRole("button", { name: "Balance" }).click();
  await expect(table.getByRole("columnheader", { name: "Balance" })).toHaveAttribute(
    "aria-sort",
    "descending",
  );
  expect((await shownRows(table)).map((row) => row.name)).toEqual([chatterName, mailerName]);
  await table.getByRole("button", { name: "Balance" }).click();
  await expect(table.getByRole("columnheader", { name: "Balance" })).toHaveAttribute(
    "aria-sort",
    "ascending",
  );
  expect((await shownRows(table)).map((row) => row.name)).toEqual([mailerName, chatterName]);
  // In words and coloured for the reader: Home sent Mailer more (ahead, the giver's tone), and
  // received more from Chatter (behind: it owes clicks back, a warning tone).
  const balances = await table
    .locator("[data-tone]:has([data-cell='balance'])")
    .evaluateAll((cells) =>
      cells.map((cell) => [cell.getAttribute("data-tone"), getComputedStyle(cell).color]),
    );
  expect(balances.map(([tone]) => tone)).toEqual(["ahead", "behind"]);
  expect(new Set(balances.map(([, colour]) => colour)).size).toBe(2);
  // The weight in words, for a pointer's hover and a screen reader.
  await expect(table.locator('[data-cell="ad-weight"]').first()).toHaveAttribute(
    "title",
    weightSentence(mailerName, mailerEntry.adWeight),
  );
  await card.screenshot({ path: testInfo.outputPath("partners-desktop.png") });

  // The revenue card counts the sales beside each amount, per currency, the most sales first.
  const revenueCard = page.getByTestId("revenue-card");
  expect(await shownRevenue(revenueCard, "received")).toEqual([
    ["EUR", "€1,234.50", "1 sale"],
    ["JPY", "¥5,000", "1 sale"],
  ]);
  expect(await shownRevenue(revenueCard, "sent")).toEqual([["USD", "$49.99", "1 sale"]]);
  await revenueCard.screenshot({ path: testInfo.outputPath("revenue-sales-desktop.png") });

  // The chart's values on keyboard focus: the latest day first, then the arrow keys.
  const today = await todaysTooltip(request, home.token);
  const chart = page.getByTestId("daily-chart-card");
  await chart.getByTestId("chart-day").last().focus();
  const tooltip = chart.getByTestId("chart-tooltip");
  await expect(tooltip).toBeVisible();
  await expect(tooltip.locator("li")).toHaveText(today);
  await expect(chart.getByTestId("chart-day").last()).toHaveAccessibleName(
    new RegExp(`^[A-Z][a-z]{2} \\d{1,2}: clicks sent ${today[0]?.replace("Clicks sent", "")}, `),
  );
  await chart.screenshot({ path: testInfo.outputPath("chart-focus-desktop.png") });
  await page.keyboard.press("ArrowLeft");
  await expect(chart.getByTestId("chart-day").nth(28)).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(tooltip).toHaveCount(0);

  // Mailer's name leads to its Buddy page: 30 and 90 days, as the API says.
  await table.getByRole("link", { name: mailerName }).click();
  await expect(page).toHaveURL(`/dashboard/tools/${homeToMailer.id}`);
  const ledgerCard = page.getByTestId("partner-ledger-card");
  await expect(ledgerCard.getByRole("heading", { name: `Give and take with ${mailerName}` })).toBeVisible();
  // Partnership strength moved with the clicks both ways, the leads and the sales.
  const strengthAfter = await strengthOf();
  expect(strengthAfter).toBeGreaterThan(strengthBefore);
  await expect(page.getByTestId("strength-score")).toHaveText(`${strengthAfter}/10`);
  await expect(ledgerCard.getByTestId("partner-ledger-table")).toBeVisible();
  const quarterEntry = quarter.find((partner) => partner.organizationId === mailer.organizationId);
  expect(quarterEntry).toBeDefined();
  expect(await shownLedger(page, 30)).toEqual(expectedLedger(mailerEntry));
  expect(await shownLedger(page, 90)).toEqual(expectedLedger(quarterEntry as PartnerLedger));
  await expect(ledgerCard.getByTestId("balance-sentences").getByRole("listitem")).toHaveText([
    `Last 30 days: ${balanceSentence(mailerName, mailerEntry.balance)}.`,
    `Last 90 days: ${balanceSentence(mailerName, (quarterEntry as PartnerLedger).balance)}.`,
  ]);
  await expect(ledgerCard.getByTestId("partner-ad-weight").getByTestId("ad-weight-value")).toHaveText(
    weight(mailerEntry.adWeight),
  );
  await expect(ledgerCard.getByTestId("ad-weight-sentence")).toHaveText(
    weightSentence(mailerName, mailerEntry.adWeight),
  );
  // Revenue once on the page: the revenue card's, with its sales; the ledger has none.
  await expect(page.getByTestId("revenue-card")).toHaveCount(1);
  await expect(page.getByText("Revenue given")).toHaveCount(0);
  expect(await shownRevenue(page.getByTestId("revenue-card"), "sent")).toEqual([["USD", "$49.99", "1 sale"]]);
  expect(await shownRevenue(page.getByTestId("revenue-card"), "received")).toEqual([
    ["EUR", "€1,234.50", "1 sale"],
  ]);
  await ledgerCard.screenshot({ path: testInfo.outputPath("buddy-ledger-desktop.png") });

  // On a phone: stacked cards with the same figures, and the Buddy page, without sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard");
  const cards = card.getByTestId("partner-cards");
  await expect(cards).toBeVisible();
  await expect(table).toBeHidden();
  await expect(cards.getByTestId("partner-row")).toHaveCount(2);
  expect(await shownRows(cards)).toEqual(expected);
  await expect(cards.getByText(balanceSentence(chatterName, chatterEntry.balance))).toBeVisible();
  await expectNoSidewaysScroll(page);
  await tallPhone(page);
  await card.screenshot({ path: testInfo.outputPath("partners-390.png") });
  await page.setViewportSize({ width: 390, height: 844 });

  // The revenue card's sales on a phone, and the weight's sentence under each partner's meter.
  expect(await shownRevenue(page.getByTestId("revenue-card"), "sent")).toEqual([["USD", "$49.99", "1 sale"]]);
  await expect(cards.getByTestId("ad-weight-sentence")).toHaveText([
    weightSentence(mailerName, mailerEntry.adWeight),
    weightSentence(chatterName, chatterEntry.adWeight),
  ]);
  await tapTheChart(browser, testInfo, home.token, today);

  await page.goto(`/dashboard/tools/${homeToMailer.id}`);
  await expect(ledgerCard.getByTestId("partner-ledger-table")).toBeVisible();
  expect(await shownLedger(page, 30)).toEqual(expectedLedger(mailerEntry));
  expect(await shownLedger(page, 90)).toEqual(expectedLedger(quarterEntry as PartnerLedger));
  await expect(ledgerCard.getByTestId("ad-weight-sentence")).toHaveText(
    weightSentence(mailerName, mailerEntry.adWeight),
  );
  await expectNoSidewaysScroll(page);
  await tallPhone(page);
  await ledgerCard.screenshot({ path: testInfo.outputPath("buddy-ledger-390.png") });
  await page.setViewportSize({ width: 390, height: 844 });

  // The API docs say how the weights rotate the ads.
  await page.goto("/dashboard/api-docs");
  const guide = page.getByTestId("ad-rotation-guide");
  await expect(guide.getByTestId("ad-weight-formula")).toContainText(
    "weight = clamp(clicks × proof, 0.25, 4)",
  );
  await expectNoSidewaysScroll(page);
  await tallPhone(page);
  await guide.screenshot({ path: testInfo.outputPath("ad-rotation-390.png") });
});
