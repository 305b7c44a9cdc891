import { SECURITY_LOG_ACTIONS, SECURITY_LOG_LABELS } from "@shared/security-log";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SecurityLogGuide } from "@/features/api-docs/security-log-guide";
import { renderWithProviders } from "@/testing/render-with-providers";

describe("the API docs' security log guide", () => {
  it("names the route, its paging and retention, every field and every action with its label", () => {
    renderWithProviders(<SecurityLogGuide />);
    const guide = within(screen.getByTestId("security-log-guide"));
    expect(guide.getByText("/api/security-log?limit=50&before=…")).toBeInTheDocument();
    expect(guide.getByText(/kept 180 days/)).toBeInTheDocument();
    expect(guide.getByRole("link", { name: "Settings → Security log" })).toHaveAttribute(
      "href",
      "/dashboard/settings?tab=security-log",
    );
    const rowsOf = (testId: string) =>
      within(guide.getByTestId(testId))
        .getAllByRole("row")
        .slice(1)
        .map((row) => [row.querySelector("code")?.textContent, row.querySelectorAll("td")[1]?.textContent]);
    expect(rowsOf("security-log-fields").map(([name]) => name)).toEqual([
      "id",
      "action",
      "actorEmail",
      "target",
      "ipAddress",
      "createdAt",
    ]);
    expect(rowsOf("security-log-actions")).toEqual(
      SECURITY_LOG_ACTIONS.map((action) => [action, SECURITY_LOG_LABELS[action]]),
    );
  });
});
