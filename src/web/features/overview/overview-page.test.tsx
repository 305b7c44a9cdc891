import type { Activity } from "@shared/tracking";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeOrganization, makeRelationship } from "@/testing/fixtures";
import { makeUser, renderApp } from "@/testing/render-app";
import { makeDailyFigures } from "./daily-figures-fixture";
import { makePartner } from "./partners/partners-fixture";

/** The lazy route, the session and six requests load first; a busy machine needs more than 1 s. */
const FIRST_LOAD = { timeout: 5000 };

const RELATIONSHIPS = [
  makeRelationship({ id: "b1" }),
  makeRelationship({ id: "b2", targetOrg: { id: "o3", name: "Chatly" } }),
  makeRelationship({ id: "b3", status: "suggested" }),
  makeRelationship({ id: "b4", status: "deleted" }),
  makeRelationship({ id: "c1", type: "competitor", targetOrg: { id: "o5", name: "Rival" } }),
];

const ACTIVITY: Activity = [
  {
    kind: "lead_received",
    at: new Date(Date.now() - 5 * 60_000).toISOString(),
    organization: { id: "o2", name: "Mailfast" },
    detail: "signup",
    amount: null,
  },
  {
    kind: "sale_received",
    at: "2025-01-02T00:00:00.000Z",
    organization: { id: "o2", name: "Mailfast" },
    detail: "purchase",
    amount: { currency: "USD", value: 49.99 },
  },
  {
    kind: "click_sent",
    at: "2025-01-01T00:00:00.000Z",
    organization: { id: "o3", name: "Chatly" },
    detail: null,
    amount: null,
  },
  {
    kind: "new_buddy",
    at: "2024-12-31T00:00:00.000Z",
    organization: { id: "o3", name: "Chatly" },
    detail: null,
    amount: null,
  },
];

type Routes = Parameters<typeof stubFetch>[0];

function signedIn(overrides: Routes = {}) {
  setToken("token");
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser() }),
    "GET /api/relationships": jsonResponse(200, RELATIONSHIPS),
    "GET /api/metrics/clicks": jsonResponse(200, { sent: 12, received: 34 }),
    "GET /api/metrics/leads": jsonResponse(200, { sent: 5, received: 7 }),
    "GET /api/metrics/daily": jsonResponse(
      200,
      makeDailyFigures({ 3: { clicksSent: 4 }, 29: { leadsReceived: 2 } }),
    ),
    "GET /api/activity": jsonResponse(200, ACTIVITY),
    "GET /api/organization": jsonResponse(200, makeOrganization()),
    "GET /api/metrics/revenue/daily": jsonResponse(200, [
      { day: "2025-03-02", currency: "EUR", sent: 0, received: 1234.5 },
      { day: "2025-03-02", currency: "USD", sent: 49.99, received: 0 },
    ]),
    "GET /api/metrics/partners?days=30": jsonResponse(200, {
      partners: [makePartner({ organizationId: "o3", name: "Chatly", clicks: { sent: 4, received: 9 } })],
    }),
    "GET /api/metrics/revenue": jsonResponse(200, {
      sent: [{ currency: "USD", value: 49.99, sales: 1 }],
      received: [
        { currency: "EUR", value: 1234.5, sales: 1 },
        { currency: "JPY", value: 5000, sales: 2 },
      ],
    }),
    ...overrides,
  });
}

/** The six cards once every number has loaded (or failed). */
async function statCards() {
  await screen.findAllByTestId("stat-card", {}, FIRST_LOAD);
  await waitFor(() => expect(screen.queryAllByTestId("stat-value-loading")).toHaveLength(0), FIRST_LOAD);
  return screen.getAllByTestId("stat-card").map((card) => ({
    label: within(card).getByText((_, element) => element?.getAttribute("data-slot") === "card-title")
      .textContent,
    value: within(card).getByTestId("stat-value").textContent,
    href: card.getAttribute("href"),
  }));
}

// The whole app renders per test (lazy route included); a busy machine can pass the 5 s default.
describe("Overview page", { timeout: 15_000 }, () => {
  it("shows the six SPEC cards with the server's numbers, each linking to its page", async () => {
    signedIn();
    renderApp("/dashboard");

    expect(await statCards()).toEqual([
      { label: "Buddies", value: "2", href: "/dashboard/tools" },
      { label: "Clicks Sent", value: "12", href: "/dashboard/marketing" },
      { label: "Clicks Received", value: "34", href: "/dashboard/marketing" },
      { label: "Leads Sent", value: "5", href: "/dashboard/marketing" },
      { label: "Leads Received", value: "7", href: "/dashboard/marketing" },
      { label: "Competitors", value: "1", href: "/dashboard/competitors" },
    ]);
    for (const text of [
      "Total outbound clicks",
      "Total inbound clicks",
      "Leads shared with partners",
      "Leads from partners",
    ]) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
  });

  it("explains on demand why clicks did not count, on each clicks card, fetching only when asked", async () => {
    const reasons = { bot: 0, repeat: 0, burst: 0, source_cap: 0, own_click: 0, blocked: 0, not_live: 0 };
    const fetchMock = signedIn({
      "GET /api/metrics/clicks/uncounted?days=30": jsonResponse(200, {
        days: 30,
        sent: { total: 12, reasons: { ...reasons, bot: 9, repeat: 3 } },
        received: { total: 0, reasons },
      }),
    });
    renderApp("/dashboard");
    await statCards();
    const asked = () => fetchCalls(fetchMock).filter((call) => call.includes("/uncounted")).length;
    expect(asked()).toBe(0);
    // The six cards stay as SPEC has them; only the two clicks cards have a "Why?".
    const why = screen.getAllByRole("button", { name: "Why?" });
    expect(why).toHaveLength(2);
    const [sent, received] = why as [HTMLElement, HTMLElement];
    expect(sent).toHaveAttribute("aria-expanded", "false");
    fireEvent.click(sent);
    expect(sent).toHaveAttribute("aria-expanded", "true");
    const [sentText] = await screen.findAllByTestId("uncounted-clicks-text");
    await waitFor(() => expect(sentText).toHaveTextContent("12 not counted: 9 bots, 3 repeats"));
    expect(sentText).toHaveTextContent("Last 30 days");
    fireEvent.click(received);
    await waitFor(() =>
      expect(screen.getAllByTestId("uncounted-clicks-text")[1]).toHaveTextContent("Every click counted"),
    );
    expect(asked()).toBe(1);
    // Opening it did not follow the card's link: the overview is still there.
    expect(screen.getAllByTestId("stat-card")).toHaveLength(6);
    fireEvent.click(sent);
    expect(sent).toHaveAttribute("aria-expanded", "false");
    expect(screen.getAllByTestId("uncounted-clicks-text")).toHaveLength(1);
  });

  it("shows the organization profile", async () => {
    signedIn();
    renderApp("/dashboard");

    const profile = await screen.findByTestId("organization-profile");
    expect(await within(profile).findByTestId("organization-name", {}, FIRST_LOAD)).toHaveTextContent("Acme");
    expect(within(profile).getByRole("link", { name: "acme.com" })).toHaveAttribute(
      "href",
      "https://acme.com",
    );
    expect(profile).toHaveTextContent("Software");
    expect(profile).toHaveTextContent("50 employees");
    expect(profile).toHaveTextContent("Acme makes collaboration software.");
    expect(within(profile).getByTestId("org-logo")).toBeInTheDocument();
  });

  it("lists recent activity newest first, one sentence and a relative time each", async () => {
    signedIn();
    renderApp("/dashboard");

    const items = await screen.findAllByTestId("activity-item", {}, FIRST_LOAD);
    expect(items.map((item) => item.querySelector("span + span")?.textContent)).toEqual([
      "Lead (signup) received from Mailfast",
      "Purchase of $49.99 from Mailfast",
      "Click sent to Chatly",
      "New Buddy: Chatly",
    ]);
    expect(within(items[0] as HTMLElement).getByText("5 minutes ago")).toBeInTheDocument();
    expect(screen.queryByText("No recent activity to show.")).not.toBeInTheDocument();
  });

  it("says 'No recent activity to show.' when the list is empty", async () => {
    signedIn({ "GET /api/activity": jsonResponse(200, []) });
    renderApp("/dashboard");
    expect(await screen.findByText("No recent activity to show.", {}, FIRST_LOAD)).toBeInTheDocument();
    expect(screen.queryAllByTestId("activity-item")).toHaveLength(0);
  });

  it("draws the 30 days of all four series with a legend and a text summary", async () => {
    signedIn();
    renderApp("/dashboard");

    const chart = await screen.findByRole("img", { name: "Clicks and leads, last 30 days" }, FIRST_LOAD);
    // Over the picture, a button per day that shows its values (daily-chart.test.tsx).
    const days = screen.getByRole("group", { name: "Clicks and leads, last 30 days, day by day" });
    expect(within(days).getAllByTestId("chart-day")).toHaveLength(30);
    expect(within(chart).getAllByTestId("chart-point")).toHaveLength(120);
    for (const line of within(chart).getAllByTestId("chart-line")) {
      expect(line.getAttribute("points")?.split(" ")).toHaveLength(30);
    }
    expect(chart).toHaveAccessibleDescription(
      "Clicks and leads per day, Feb 1 to Mar 2. Totals: clicks sent 4, clicks received 0, leads sent 0, leads received 2.",
    );
    expect(
      within(screen.getByTestId("chart-legend"))
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Clicks sent", "Clicks received", "Leads sent", "Leads received"]);
    expect(within(chart).getAllByTestId("chart-x-label").at(-1)).toHaveTextContent("Mar 2");
  });

  it("shows revenue received and sent, one amount per currency with its sales, the most sales first, never converted", async () => {
    signedIn();
    renderApp("/dashboard");
    const card = await screen.findByTestId("revenue-card", {}, FIRST_LOAD);
    await waitFor(() => expect(within(card).getAllByTestId("revenue-amount")).toHaveLength(3), FIRST_LOAD);
    const amounts = (side: string) =>
      within(within(card).getByTestId(`revenue-${side}`))
        .queryAllByTestId("revenue-amount")
        .map((amount) => amount.textContent);
    expect(amounts("received")).toEqual(["¥5,000", "€1,234.50"]);
    expect(amounts("sent")).toEqual(["$49.99"]);
    expect(
      within(card)
        .getAllByTestId("revenue-sales")
        .map((sales) => sales.textContent),
    ).toEqual(["2 sales", "1 sale", "1 sale"]);
    expect(
      within(card).getByText("Net of refunds. A refunded sale still counts as a sale."),
    ).toBeInTheDocument();
  });

  it("draws one currency's revenue per day when asked, never two currencies added together", async () => {
    signedIn();
    renderApp("/dashboard");
    const card = await screen.findByTestId("daily-chart-card", {}, FIRST_LOAD);
    const choice = within(await within(card).findByRole("group", { name: "Chart" }, FIRST_LOAD));
    expect(choice.getAllByRole("button").map((button) => button.textContent)).toEqual([
      "Clicks & leads",
      "Revenue (EUR)",
      "Revenue (USD)",
    ]);
    fireEvent.click(choice.getByRole("button", { name: "Revenue (EUR)" }));
    expect(await within(card).findByText("Revenue in EUR per day")).toBeInTheDocument();
    const legend = await within(card).findByTestId("chart-legend", {}, FIRST_LOAD);
    expect(
      within(legend)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Revenue sent", "Revenue received"]);
    expect(within(card).getByRole("img", { name: "Revenue in EUR, last 30 days" })).toBeInTheDocument();
    expect(choice.getByRole("button", { name: "Revenue (EUR)" })).toHaveAttribute("aria-pressed", "true");
  });

  it("exports a CSV for the chosen days and says what the server refused", async () => {
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const path = (from: string, to: string) => `GET /api/exports/conversions.csv?from=${from}&to=${to}`;
    const fetchMock = signedIn({
      [path(day(29), day(0))]: new Response("id,occurred_at\r\n", {
        status: 200,
        headers: {
          "content-type": "text/csv",
          "content-disposition": 'attachment; filename="conversions.csv"',
        },
      }),
      [path("2024-01-01", day(0))]: jsonResponse(400, { message: "An export covers at most 366 days" }),
    });
    const createObjectURL = vi.fn(() => "blob:export");
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    renderApp("/dashboard");
    // The button stays the same element while its dialog loads: the focus stays on it, and comes
    // back to it when the dialog closes.
    const button = await screen.findByRole("button", { name: "Export CSV" }, FIRST_LOAD);
    button.focus();
    fireEvent.click(button);
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute("aria-expanded", "true");
    const dialog = within(await screen.findByRole("dialog"));
    fireEvent.keyDown(dialog.getByRole("button", { name: "Download" }), { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute("aria-expanded", "false");

    fireEvent.click(button);
    fireEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Download" }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(1));
    expect(fetchCalls(fetchMock)).toContain(path(day(29), day(0)));

    fireEvent.click(await screen.findByRole("button", { name: "Export CSV" }));
    const again = within(await screen.findByRole("dialog"));
    // Only the days the server exports are offered.
    for (const label of ["From", "To"]) {
      expect(again.getByLabelText(label)).toHaveAttribute("min", "2000-01-01");
      expect(again.getByLabelText(label)).toHaveAttribute("max", "2100-12-31");
    }
    fireEvent.change(again.getByLabelText("From"), { target: { value: "2024-01-01" } });
    fireEvent.click(again.getByRole("button", { name: "Download" }));
    expect(await again.findByText("An export covers at most 366 days")).toBeInTheDocument();
  });

  it("says how to get revenue when there is none yet", async () => {
    signedIn({ "GET /api/metrics/revenue": jsonResponse(200, { sent: [], received: [] }) });
    renderApp("/dashboard");
    const card = await screen.findByTestId("revenue-card", {}, FIRST_LOAD);
    expect(await within(card).findByText(/No revenue yet/, {}, FIRST_LOAD)).toBeInTheDocument();
    expect(within(card).getByRole("link", { name: "connect Stripe" })).toHaveAttribute(
      "href",
      "/dashboard/settings?tab=install",
    );
  });

  it("lists the partners of the last 30 days, a Buddy's name leading to its page", async () => {
    signedIn();
    renderApp("/dashboard");

    const card = await screen.findByTestId("partners-card", {}, FIRST_LOAD);
    const table = await within(card).findByTestId("partners-table");
    expect(within(table).getByRole("link", { name: "Chatly" })).toHaveAttribute(
      "href",
      "/dashboard/tools/b2",
    );
    expect(table.querySelector('[data-cell="balance"]')).toHaveTextContent("Received 5 more clicks");
  });

  it("names each failed source with its SPEC text and keeps the other cards", async () => {
    signedIn({
      "GET /api/metrics/clicks": jsonResponse(500, { message: "Internal Server Error" }),
      "GET /api/metrics/leads": jsonResponse(500, { message: "Internal Server Error" }),
      "GET /api/organization": jsonResponse(500, { message: "Internal Server Error" }),
    });
    renderApp("/dashboard");

    expect(await screen.findByText("Failed to fetch clicks metrics", {}, FIRST_LOAD)).toBeInTheDocument();
    expect(await screen.findByText("Failed to fetch leads metrics")).toBeInTheDocument();
    expect(await screen.findByText("Failed to fetch organization data")).toBeInTheDocument();
    expect(screen.getAllByRole("alert")).toHaveLength(3);
    const cards = await statCards();
    expect(cards.map((card) => card.value)).toEqual(["2", "—", "—", "—", "—", "1"]);
  });
});
