import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { DailyChart } from "./daily-chart";
import { makeDailyFigures } from "./daily-figures-fixture";
import { revenueChartKind, revenueDays } from "./revenue-chart";

// Feb 1 is day 0: the last day, Mar 2, is day 29.
const DAYS = makeDailyFigures({
  3: { clicksSent: 7, clicksReceived: 2, leadsSent: 1 },
  29: { clicksSent: 1, leadsReceived: 4 },
});

function tooltip() {
  return screen.queryByTestId("chart-tooltip");
}

/** The tooltip's lines as "label value". */
function tooltipLines() {
  // Hidden from the accessibility tree (the day's label says it), so read as the eye sees it.
  return [...(tooltip()?.querySelectorAll("li") ?? [])].map((item) => item.textContent);
}

describe("the daily chart's values", () => {
  it("shows none until a day is hovered, tapped or focused", () => {
    render(<DailyChart days={DAYS} />);
    expect(tooltip()).not.toBeInTheDocument();
    // One labelled button per day, one tab stop: the latest day.
    const days = screen.getAllByTestId("chart-day");
    expect(days).toHaveLength(30);
    expect(days.filter((day) => day.tabIndex === 0).map((day) => day.getAttribute("data-day"))).toEqual([
      "2025-03-02",
    ]);
  });

  it("shows a day's values beside it on keyboard focus, each day's label saying them too", async () => {
    render(<DailyChart days={DAYS} />);
    await userEvent.tab();
    const latest = screen.getByRole("button", {
      name: "Mar 2: clicks sent 1, clicks received 0, leads sent 0, leads received 4",
    });
    expect(latest).toHaveFocus();
    expect(tooltip()).toBeVisible();
    expect(tooltip()).toHaveTextContent("Mar 2");
    expect(tooltipLines()).toEqual(["Clicks sent1", "Clicks received0", "Leads sent0", "Leads received4"]);
    // Hidden from screen readers: the focused day's label reads the same.
    expect(tooltip()).toHaveAttribute("aria-hidden", "true");

    // The arrow keys move between days; Home goes to the first.
    await userEvent.keyboard("{Home}");
    expect(screen.getByRole("button", { name: /^Feb 1:/ })).toHaveFocus();
    expect(tooltip()).toHaveTextContent("Feb 1");
    for (let step = 0; step < 3; step++) await userEvent.keyboard("{ArrowRight}");
    expect(screen.getByRole("button", { name: /^Feb 4:/ })).toHaveFocus();
    expect(tooltipLines()).toEqual(["Clicks sent7", "Clicks received2", "Leads sent1", "Leads received0"]);
    // The tab stop follows: leaving and coming back lands on Feb 4.
    expect(screen.getAllByTestId("chart-day").filter((day) => day.tabIndex === 0)).toHaveLength(1);
    expect(screen.getByRole("button", { name: /^Feb 4:/ })).toHaveAttribute("tabindex", "0");

    await userEvent.keyboard("{Escape}");
    expect(tooltip()).not.toBeInTheDocument();
    await userEvent.tab();
    expect(tooltip()).not.toBeInTheDocument();
  });

  it("shows a day's values on a tap, and on a mouse's hover", () => {
    render(<DailyChart days={DAYS} />);
    const feb4 = screen.getByRole("button", { name: /^Feb 4:/ });
    // A touch: the pointer enters and leaves around the tap, which is what selects the day.
    fireEvent.pointerEnter(feb4, { pointerType: "touch" });
    fireEvent.click(feb4);
    fireEvent.pointerLeave(screen.getByTestId("chart-days"), { pointerType: "touch" });
    expect(tooltip()).toHaveTextContent("Feb 4");
    expect(feb4).toHaveFocus();

    const mar2 = screen.getByRole("button", { name: /^Mar 2:/ });
    fireEvent.pointerEnter(mar2, { pointerType: "mouse" });
    expect(tooltip()).toHaveTextContent("Mar 2");
    // The pointer leaves the chart: back to the tapped day.
    fireEvent.pointerLeave(screen.getByTestId("chart-days"), { pointerType: "mouse" });
    expect(tooltip()).toHaveTextContent("Feb 4");
  });

  it("writes revenue in its currency", async () => {
    const days = revenueDays(
      DAYS,
      [{ day: "2025-02-04", currency: "USD", sent: 49.99, received: 3700 }],
      "USD",
    );
    render(<DailyChart days={days} kind={revenueChartKind("USD")} />);
    await userEvent.click(screen.getByRole("button", { name: /^Feb 4:/ }));
    expect(tooltipLines()).toEqual(["Revenue sent$49.99", "Revenue received$3,700.00"]);
    expect(screen.getByRole("img", { name: "Revenue in USD, last 30 days" })).toBeInTheDocument();
  });
});
