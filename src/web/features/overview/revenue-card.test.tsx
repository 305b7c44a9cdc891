import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { renderWithProviders } from "@/testing/render-with-providers";
import { REVENUE_NET_TEXT, RevenueCard } from "./revenue-card";
import { revenueCardLines } from "./revenue-lines";

function lines(side: "received" | "sent") {
  return within(screen.getByTestId(`revenue-${side}`))
    .queryAllByTestId("revenue-line")
    .map((line) => [
      line.getAttribute("data-currency"),
      within(line).getByTestId("revenue-amount").textContent,
      within(line).getByTestId("revenue-sales").textContent,
    ]);
}

describe("the revenue card", () => {
  it("counts the sales beside each currency's amount, the most sales first", async () => {
    setToken("token");
    stubFetch({
      "GET /api/metrics/revenue?partnerId=o2": jsonResponse(200, {
        sent: [],
        received: [
          { currency: "EUR", value: 1234.5, sales: 1 },
          { currency: "JPY", value: 5000, sales: 1 },
          { currency: "USD", value: 3700, sales: 12 },
        ],
      }),
    });
    renderWithProviders(<RevenueCard partner={{ id: "o2", name: "Quillmail" }} />);

    expect(await screen.findByRole("heading", { name: "Revenue with Quillmail" })).toBeInTheDocument();
    await screen.findAllByTestId("revenue-line");
    // Amounts in different currencies are never compared: USD leads by its sales; EUR and JPY,
    // one sale each, follow by their codes (¥5,000 is not more than €1,234.50).
    expect(lines("received")).toEqual([
      ["USD", "$3,700.00", "12 sales"],
      ["EUR", "€1,234.50", "1 sale"],
      ["JPY", "¥5,000", "1 sale"],
    ]);
    // The empty side: one dash, as everywhere money shows, and "none" for a screen reader.
    const sent = screen.getByTestId("revenue-sent");
    expect(within(sent).queryByTestId("revenue-amount")).not.toBeInTheDocument();
    expect(sent.querySelector("[data-empty-amount]")).toHaveTextContent("—none");
    expect(screen.getByText(REVENUE_NET_TEXT)).toBeInTheDocument();
  });

  it("keeps a sale refunded in full as a sale, its amount net of the refund", async () => {
    setToken("token");
    stubFetch({
      "GET /api/metrics/revenue": jsonResponse(200, {
        sent: [{ currency: "USD", value: 0, sales: 1 }],
        received: [],
      }),
    });
    renderWithProviders(<RevenueCard />);

    await screen.findAllByTestId("revenue-line");
    expect(lines("sent")).toEqual([["USD", "$0.00", "1 sale"]]);
    expect(screen.getByText("Net of refunds. A refunded sale still counts as a sale.")).toBeInTheDocument();
    expect(screen.queryByText(/No revenue yet/)).not.toBeInTheDocument();
  });
});

describe("revenueCardLines", () => {
  it("orders by sales, then by currency code, never by amount, and writes each count with its noun", () => {
    expect(
      revenueCardLines([
        { currency: "GBP", value: 10, sales: 2 },
        { currency: "JPY", value: 10, sales: 2 },
        { currency: "USD", value: 99, sales: 2 },
        { currency: "EUR", value: 5, sales: 3 },
      ]),
    ).toEqual([
      { currency: "EUR", amount: "€5.00", sales: "3 sales" },
      { currency: "GBP", amount: "£10.00", sales: "2 sales" },
      { currency: "JPY", amount: "¥10", sales: "2 sales" },
      { currency: "USD", amount: "$99.00", sales: "2 sales" },
    ]);
  });
});
