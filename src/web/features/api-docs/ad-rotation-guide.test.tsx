import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AdRotationGuide } from "./ad-rotation-guide";

describe("the Ads API's rotation guide", () => {
  it("gives the weight's formula, its bounds and window, and how the draw uses it", () => {
    render(<AdRotationGuide />);
    const guide = screen.getByTestId("ad-rotation-guide");

    expect(within(guide).getByRole("heading", { name: "How partners take turns" })).toBeInTheDocument();
    expect(screen.getByTestId("ad-weight-formula")).toHaveTextContent(
      "weight = clamp((received + 10) / (sent + 10), 0.25, 4)",
    );
    expect(guide).toHaveTextContent("over the last 30 days");
    expect(guide).toHaveTextContent("no history in the window has weight 1");
    expect(guide).toHaveTextContent("never goes below 0.25 or above 4");
    expect(guide).toHaveTextContent("cached with them for up to 5 minutes");
    expect(guide).toHaveTextContent("a Buddy is not drawn again while other Buddies with ads remain");

    const rows = within(screen.getByTestId("ad-weight-examples")).getAllByRole("row").slice(1);
    expect(
      rows.map((row) => [...row.querySelectorAll("td")].slice(0, 3).map((td) => td.textContent)),
    ).toEqual([
      ["0", "0", "1"],
      ["25", "25", "1"],
      ["10", "0", "2"],
      ["0", "10", "0.5"],
      ["50", "0", "4"],
      ["0", "90", "0.25"],
    ]);
  });
});
