import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { renderWithProviders } from "@/testing/render-with-providers";
import { PartnerLedgerCard } from "./partner-ledger-card";
import { makePartner } from "./partners-fixture";

const MAILFAST = { id: "o2", name: "Mailfast" };

function cells(days: number) {
  const table = screen.getByTestId("partner-ledger-table");
  return Object.fromEntries(
    within(table)
      .getAllByRole("row")
      .slice(1)
      .map((row) => [
        row.getAttribute("data-row"),
        row.querySelector(`td[data-days="${days}"]`)?.textContent,
      ]),
  );
}

describe("a Buddy's ledger card", () => {
  it("shows the pair's figures over 30 and 90 days, each balance in words, and today's ad weight", async () => {
    setToken("token");
    stubFetch({
      "GET /api/metrics/partners?days=30": jsonResponse(200, {
        partners: [
          makePartner({ organizationId: "o9", name: "Other", clicks: { sent: 100, received: 100 } }),
          makePartner({
            organizationId: "o2",
            name: "Mailfast",
            clicks: { sent: 2, received: 12 },
            leads: { sent: 1, received: 4 },
            revenue: { sent: [], received: [{ currency: "JPY", value: 5000 }] },
          }),
        ],
      }),
      "GET /api/metrics/partners?days=90": jsonResponse(200, {
        partners: [
          makePartner({
            organizationId: "o2",
            name: "Mailfast",
            clicks: { sent: 41, received: 13 },
            leads: { sent: 6, received: 4 },
            revenue: {
              sent: [
                { currency: "EUR", value: 12 },
                { currency: "USD", value: 49.99 },
              ],
              received: [{ currency: "JPY", value: 5000 }],
            },
          }),
        ],
      }),
    });
    renderWithProviders(<PartnerLedgerCard partner={MAILFAST} />);

    expect(screen.getByRole("heading", { name: "Give and take with Mailfast" })).toBeInTheDocument();
    expect(
      within(await screen.findByTestId("balance-sentences"))
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      "Last 30 days: Mailfast sent you 10 more clicks than you sent them.",
      "Last 90 days: You sent Mailfast 28 more clicks than they sent you.",
    ]);
    // The SPEC's words, Sent and Received, and no revenue: the page's revenue card has it, once.
    expect(
      within(screen.getByTestId("partner-ledger-table"))
        .getAllByRole("rowheader")
        .map((th) => th.textContent),
    ).toEqual(["Clicks sent", "Clicks received", "Leads sent", "Leads received", "Balance"]);
    expect(cells(30)).toEqual({
      "clicks-sent": "2 clicks",
      "clicks-received": "12 clicks",
      "leads-sent": "1 lead",
      "leads-received": "4 leads",
      balance: "Received 10 more clicks",
    });
    expect(cells(90)).toEqual({
      "clicks-sent": "41 clicks",
      "clicks-received": "13 clicks",
      "leads-sent": "6 leads",
      "leads-received": "4 leads",
      balance: "Sent 28 more clicks",
    });
    // Behind over 30 days (a warning tone), ahead over 90 (the giver's).
    const tones = [30, 90].map((days) =>
      screen
        .getByTestId("partner-ledger-table")
        .querySelector(`tr[data-row="balance"] td[data-days="${days}"] [data-tone]`)
        ?.getAttribute("data-tone"),
    );
    expect(tones).toEqual(["behind", "ahead"]);
    // (12 + 10) / (2 + 10), over the 30 days the Ads API weighs.
    expect(screen.getByTestId("partner-ad-weight")).toHaveTextContent("×1.83");
    expect(screen.getByTestId("ad-weight-sentence")).toHaveTextContent(
      "Mailfast's ads get 1.83× the usual share of your newsletter ad slots.",
    );
  });

  it("shows zeros and the weight of no history for a Buddy absent from the lists", async () => {
    setToken("token");
    stubFetch({
      "GET /api/metrics/partners?days=30": jsonResponse(200, { partners: [] }),
      "GET /api/metrics/partners?days=90": jsonResponse(200, { partners: [] }),
    });
    renderWithProviders(<PartnerLedgerCard partner={MAILFAST} />);

    expect(await screen.findByTestId("partner-ledger-table")).toBeInTheDocument();
    for (const days of [30, 90]) {
      expect(cells(days)).toEqual({
        "clicks-sent": "0 clicks",
        "clicks-received": "0 clicks",
        "leads-sent": "0 leads",
        "leads-received": "0 leads",
        balance: "Even",
      });
    }
    expect(screen.getByTestId("balance-sentences")).toHaveTextContent(
      "Last 30 days: You and Mailfast have sent each other as many clicks.",
    );
    expect(screen.getByTestId("partner-ad-weight")).toHaveTextContent("×1");
    expect(screen.getByTestId("ad-weight-sentence")).toHaveTextContent(
      "Mailfast's ads get the usual share of your newsletter ad slots.",
    );
  });

  it("says when a window failed to load", async () => {
    setToken("token");
    stubFetch({
      "GET /api/metrics/partners?days=30": jsonResponse(200, { partners: [] }),
      "GET /api/metrics/partners?days=90": jsonResponse(500, { message: "Internal Server Error" }),
    });
    renderWithProviders(<PartnerLedgerCard partner={MAILFAST} />);
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to fetch partners");
    expect(screen.queryByTestId("partner-ledger-table")).not.toBeInTheDocument();
  });
});
