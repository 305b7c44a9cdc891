import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AdRotationGuide } from "./ad-rotation-guide";

describe("the Ads API's rotation guide", () => {
  it("gives the weight's formula, its bounds and window, and how the draw uses it", () => {
    render(<AdRotationGuide />);
    const guide = screen.getByTestId("ad-rotation-guide");

    expect(within(guide).getByRole("heading", { name: "How partners take turns" })).toBeInTheDocument();
    const formula = screen.getByTestId("ad-weight-formula");
    expect(formula).toHaveTextContent("clicks = clamp((clicks received + 10) / (clicks sent + 10), 0.25, 2)");
    expect(formula).toHaveTextContent("proof = clamp((proven received + 3) / (proven sent + 3), 0.5, 2)");
    expect(formula).toHaveTextContent("weight = clamp(clicks × proof, 0.25, 4)");
    expect(guide).toHaveTextContent("Clicks alone lift a weight to 2 at most");
    expect(guide).toHaveTextContent("The pixel proves nothing");
    expect(guide).toHaveTextContent("over the last 30 days");
    expect(guide).toHaveTextContent("no history in the window has weight 1");
    expect(guide).toHaveTextContent("never goes below 0.25 or above 4");
    expect(guide).toHaveTextContent("cached with them for up to 5 minutes");
    expect(guide).toHaveTextContent("a Buddy is not drawn again while other Buddies with ads remain");

    const rows = within(screen.getByTestId("ad-weight-examples")).getAllByRole("row").slice(1);
    expect(
      rows.map((row) => [...row.querySelectorAll("td")].slice(0, 5).map((td) => td.textContent)),
    ).toEqual([
      ["0", "0", "0", "0", "1"],
      ["25", "25", "2", "2", "1"],
      ["3", "0", "0", "0", "1.3"],
      ["10", "0", "0", "0", "2"],
      ["50", "0", "0", "0", "2"],
      ["50", "0", "3", "0", "4"],
      ["10", "0", "0", "6", "1"],
      ["0", "10", "0", "0", "0.5"],
      ["0", "90", "0", "0", "0.25"],
    ]);
  });
});
