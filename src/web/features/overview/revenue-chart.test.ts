import { describe, expect, it } from "vitest";
import { makeDailyFigures } from "./daily-figures-fixture";
import { revenueChartKind, revenueCurrencies, revenueDays } from "./revenue-chart";

describe("the revenue chart", () => {
  const days = makeDailyFigures({});
  const first = days[0]?.day ?? "";
  const last = days[days.length - 1]?.day ?? "";
  const rows = [
    { day: first, currency: "EUR", sent: 10, received: 0 },
    { day: last, currency: "USD", sent: 0, received: 49.99 },
    { day: last, currency: "EUR", sent: 5.5, received: 100 },
  ];

  it("lists the currencies with revenue in the revenue card's order: the most sales first, then by code", () => {
    const sale = (currency: string, value: number, sales: number) => ({ currency, value, sales });
    const totals = { sent: [sale("EUR", 115.5, 1)], received: [sale("USD", 49.99, 2), sale("EUR", 100, 1)] };
    // Two sales each: by code.
    expect(revenueCurrencies(rows, totals)).toEqual(["EUR", "USD"]);
    // Three USD sales of $50.99 outrank one EUR sale of €100: amounts in two currencies are never compared.
    expect(revenueCurrencies(rows, { ...totals, sent: [sale("USD", 1, 1)] })).toEqual(["USD", "EUR"]);
    // Before the totals come, and with as many sales, by code.
    expect(revenueCurrencies(rows, undefined)).toEqual(["EUR", "USD"]);
    expect(revenueCurrencies([], totals)).toEqual([]);
  });

  it("gives one currency's amounts on every day of the period, zeros elsewhere", () => {
    const euros = revenueDays(days, rows, "EUR");
    expect(euros).toHaveLength(days.length);
    expect(euros[0]).toEqual({ day: first, sent: 10, received: 0 });
    expect(euros[euros.length - 1]).toEqual({ day: last, sent: 5.5, received: 100 });
    expect(euros.slice(1, -1).every((day) => day.sent === 0 && day.received === 0)).toBe(true);
  });

  it("writes amounts in the currency", () => {
    expect(revenueChartKind("JPY").text.format(5000)).toBe("¥5,000");
    expect(revenueChartKind("USD").text.format(49.99)).toBe("$49.99");
    // The axis stays within its margin however large the amounts.
    expect(revenueChartKind("USD").text.formatTick(12_000)).toBe("$12K");
    expect(revenueChartKind("USD").text.formatTick(60)).toBe("$60");
  });
});
