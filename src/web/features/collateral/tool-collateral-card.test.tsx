import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeCollateral, makeRelationship } from "@/testing/fixtures";
import { makeUser, renderApp } from "@/testing/render-app";

const LIST = "GET /api/marketing/collateral?organizationId=org-2";
const GENERATE = "POST /api/marketing/generate?organizationId=org-2&autoSave=true";

function signedIn(routes: Parameters<typeof stubFetch>[0]) {
  setToken("token");
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser() }),
    "GET /api/relationships/t1": jsonResponse(200, makeRelationship({ id: "t1" })),
    ...routes,
  });
}

describe("tool detail → Marketing Collateral", () => {
  it("lists only the Buddy's active collateral, each with its preview", async () => {
    signedIn({
      [LIST]: jsonResponse(200, [
        makeCollateral({ id: "a", name: "Mailfast for teams", organizationId: "org-2" }),
        makeCollateral({ id: "d", name: "Unfinished draft", status: "draft", organizationId: "org-2" }),
      ]),
    });
    renderApp("/dashboard/tools/t1");

    const card = within(await screen.findByTestId("tool-collateral"));
    const items = await card.findAllByTestId("tool-collateral-item");
    expect(items).toHaveLength(1);
    expect(
      within(items[0] as HTMLElement).getByRole("heading", { name: "Mailfast for teams" }),
    ).toBeInTheDocument();
    expect(card.queryByText("Unfinished draft")).not.toBeInTheDocument();
    expect(card.queryByRole("button", { name: "Generate" })).not.toBeInTheDocument();
  });

  it("offers Generate when there is none, then shows what was generated", async () => {
    let list = [makeCollateral({ id: "d", status: "draft", organizationId: "org-2" })];
    const fetchMock = signedIn({
      [LIST]: () => jsonResponse(200, list),
      [GENERATE]: () => {
        list = [makeCollateral({ id: "g", name: "Generated ad", organizationId: "org-2" })];
        return jsonResponse(201, list[0]);
      },
    });
    renderApp("/dashboard/tools/t1");

    const card = within(await screen.findByTestId("tool-collateral"));
    expect(
      await card.findByText("No marketing collateral available. Generate some to get started."),
    ).toBeInTheDocument();
    await userEvent.click(card.getByRole("button", { name: "Generate" }));

    expect(await card.findByRole("heading", { name: "Generated ad" })).toBeInTheDocument();
    expect(card.queryByRole("button", { name: "Generate" })).not.toBeInTheDocument();
    expect(fetchCalls(fetchMock).filter((call) => call === GENERATE)).toHaveLength(1);
  });

  it("says 'Failed to generate collateral' when generation fails", async () => {
    signedIn({ [LIST]: jsonResponse(200, []), [GENERATE]: jsonResponse(500, {}) });
    renderApp("/dashboard/tools/t1");

    const card = within(await screen.findByTestId("tool-collateral"));
    await userEvent.click(await card.findByRole("button", { name: "Generate" }));
    expect(await screen.findByText("Failed to generate collateral")).toBeInTheDocument();
    await waitFor(() => expect(card.getByRole("button", { name: "Generate" })).toBeEnabled());
  });
});
