import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeRelationship } from "@/testing/fixtures";
import { makeUser, renderApp } from "@/testing/render-app";

const ADDER = {
  id: "org-adder",
  name: "Quillmail",
  website: "https://quillmail.com",
  domain: "quillmail.com",
  category: null,
  isPlatformUser: true,
};
const SEARCH = "GET /api/organizations/search?query=quillmail.com&type=complement";

function signedIn(routes: Parameters<typeof stubFetch>[0]) {
  setToken("token");
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser() }),
    "GET /api/relationships": jsonResponse(200, []),
    ...routes,
  });
}

describe("A notice's Add back link", () => {
  it("names the company as the search finds it and adds it only on the button", async () => {
    const fetchMock = signedIn({
      [SEARCH]: jsonResponse(200, [ADDER]),
      "POST /api/relationships": jsonResponse(
        201,
        makeRelationship({ id: "r1", targetOrg: { id: ADDER.id, name: ADDER.name } }),
      ),
    });
    renderApp("/dashboard/tools?add=quillmail.com");
    const card = await screen.findByRole("region", { name: "Add Quillmail" });
    expect(within(card).getByText("Add Quillmail to your Buddies?")).toBeInTheDocument();
    // Opening the link sent nothing that changes anything.
    expect(fetchCalls(fetchMock).filter((call) => call.startsWith("POST"))).toEqual([]);

    await userEvent.click(within(card).getByRole("button", { name: "Add Tool" }));
    expect(await screen.findByText("Tool added successfully")).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST")?.[1];
    expect(JSON.parse(String(post?.body))).toMatchObject({ organizationId: ADDER.id, type: "complement" });
    await waitFor(() => expect(screen.queryByRole("region", { name: "Add Quillmail" })).toBeNull());
  });

  it("shows nothing for a company the search does not offer", async () => {
    signedIn({ [SEARCH]: jsonResponse(200, []) });
    renderApp("/dashboard/tools?add=quillmail.com");
    await screen.findByText("Add tools that integrate well with your product.");
    expect(screen.queryByRole("region", { name: "Add Quillmail" })).toBeNull();
  });

  it("goes away on Not now", async () => {
    signedIn({
      "GET /api/organizations/search?query=quillmail.com&type=competitor": jsonResponse(200, [ADDER]),
    });
    renderApp("/dashboard/competitors?add=quillmail.com");
    const card = await screen.findByRole("region", { name: "Add Quillmail" });
    expect(within(card).getByText("Add Quillmail to your block list?")).toBeInTheDocument();
    await userEvent.click(within(card).getByRole("button", { name: "Not now" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: "Add Quillmail" })).toBeNull());
  });
});
