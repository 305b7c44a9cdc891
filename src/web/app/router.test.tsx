import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { setToken } from "@/lib/session";
import { jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeOrganization } from "@/testing/fixtures";
import { makeUser, renderApp } from "@/testing/render-app";

vi.mock("@/app/routes/marketing", () => ({
  MarketingRoute: () => {
    throw new Error("Marketing exploded");
  },
}));

describe("router", () => {
  it("shows a crashing page's error inside the shell, whose navigation keeps working", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    setToken("token");
    stubFetch({
      "GET /api/me": jsonResponse(200, { user: makeUser() }),
      "GET /api/organization": jsonResponse(200, makeOrganization()),
    });
    const { router } = renderApp("/dashboard/marketing");

    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Marketing exploded")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("link", { name: "Settings" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/settings"));
    expect(await screen.findByRole("heading", { name: "Settings" })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
