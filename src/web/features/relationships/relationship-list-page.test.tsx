import type { Relationship } from "@shared/relationships";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeRelationship } from "@/testing/fixtures";
import { makeUser, renderApp } from "@/testing/render-app";

const RELATIONSHIPS: Relationship[] = [
  makeRelationship({
    id: "t1",
    notes: "Great partner",
    targetOrg: { name: "Mailfast", domain: "mailfast.io" },
  }),
  makeRelationship({
    id: "t2",
    targetOrg: { id: "o3", name: "Chatly", website: "chatly.com", domain: "chatly.com" },
  }),
  makeRelationship({ id: "t3", status: "suggested", targetOrg: { id: "o4", name: "Suggested Co" } }),
  makeRelationship({
    id: "c1",
    type: "competitor",
    targetOrg: { id: "o5", name: "Rival", domain: "rival.com" },
  }),
];

function signedIn(routes: Parameters<typeof stubFetch>[0]) {
  setToken("token");
  return stubFetch({ "GET /api/me": jsonResponse(200, { user: makeUser() }), ...routes });
}

describe("Buddies and Block List pages", () => {
  it("lists active tools as cards linking to their detail page, searchable by name or website", async () => {
    signedIn({ "GET /api/relationships": jsonResponse(200, RELATIONSHIPS) });
    renderApp("/dashboard/tools");

    const cards = await screen.findAllByTestId("relationship-card");
    expect(cards.map((card) => within(card).getByRole("heading").textContent)).toEqual([
      "Mailfast",
      "Chatly",
    ]);
    const first = cards[0] as HTMLElement;
    expect(within(first).getByRole("link", { name: "Mailfast" })).toHaveAttribute(
      "href",
      "/dashboard/tools/t1",
    );
    expect(within(first).getByRole("link", { name: "Visit Mailfast" })).toHaveAttribute(
      "href",
      "https://mailfast.io",
    );
    expect(within(first).getByTestId("status-badge")).toHaveAttribute("data-colour", "green");
    expect(within(first).getByText("Great partner")).toBeInTheDocument();

    await userEvent.type(screen.getByRole("searchbox", { name: "Search" }), "CHATLY.C");
    expect(screen.getAllByTestId("relationship-card")).toHaveLength(1);
    await userEvent.clear(screen.getByRole("searchbox", { name: "Search" }));
    await userEvent.type(screen.getByRole("searchbox", { name: "Search" }), "nothing");
    expect(screen.getByText("No tools found matching your search.")).toBeInTheDocument();
  });

  it("shows each Buddy's shared customers to an admin, and sorts by them", async () => {
    const mailfastId = RELATIONSHIPS[0]?.targetOrg.id as string;
    signedIn({
      "GET /api/relationships": jsonResponse(200, RELATIONSHIPS),
      "GET /api/overlap/partners": jsonResponse(200, {
        partners: [
          {
            partnerId: mailfastId,
            customers: null,
            customersRun: true,
            completedAt: "2026-11-20T10:00:00.000Z",
          },
          { partnerId: "o3", customers: 38, customersRun: true, completedAt: "2026-11-21T10:00:00.000Z" },
        ],
      }),
    });
    renderApp("/dashboard/tools");

    const headings = async () =>
      (await screen.findAllByTestId("relationship-card")).map(
        (card) => within(card).getByRole("heading").textContent,
      );
    expect(await screen.findByText("38 shared customers")).toBeInTheDocument();
    expect(screen.getByText("fewer than 5 shared customers")).toBeInTheDocument();
    expect(await headings()).toEqual(["Mailfast", "Chatly"]);
    await userEvent.selectOptions(screen.getByLabelText("Sort by"), "Shared customers");
    expect(await headings()).toEqual(["Chatly", "Mailfast"]);
  });

  it("asks a member for no overlap (account overlap is for admins)", async () => {
    setToken("token");
    const fetchMock = stubFetch({
      "GET /api/me": jsonResponse(200, { user: makeUser({ role: "member" }) }),
      "GET /api/relationships": jsonResponse(200, RELATIONSHIPS),
    });
    renderApp("/dashboard/tools");
    await screen.findAllByTestId("relationship-card");
    expect(fetchCalls(fetchMock)).not.toContain("GET /api/overlap/partners");
    expect(screen.queryByLabelText("Sort by")).not.toBeInTheDocument();
  });

  it("shows the SPEC empty states", async () => {
    signedIn({ "GET /api/relationships": jsonResponse(200, []) });
    const { router } = renderApp("/dashboard/tools");
    expect(await screen.findByText("Add tools that integrate well with your product.")).toBeInTheDocument();

    await router.navigate("/dashboard/competitors");
    expect(
      await screen.findByText("Add competitors to your block list to prevent mutual suggestions."),
    ).toBeInTheDocument();
  });

  it("says 'Failed to fetch relationships' when the list cannot load", async () => {
    signedIn({ "GET /api/relationships": jsonResponse(500, { message: "Internal Server Error" }) });
    renderApp("/dashboard/competitors");
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Failed to fetch relationships")).toBeInTheDocument();
  });

  it("removes a tool by marking it deleted, and a competitor by deleting it", async () => {
    const fetchMock = signedIn({
      "GET /api/relationships": jsonResponse(200, RELATIONSHIPS),
      "PATCH /api/relationships/t1": jsonResponse(200, { ...RELATIONSHIPS[0], status: "deleted" }),
      "DELETE /api/relationships/c1": new Response(null, { status: 204 }),
    });
    const { router } = renderApp("/dashboard/tools");

    const [mailfast] = await screen.findAllByTestId("relationship-card");
    await userEvent.click(within(mailfast as HTMLElement).getByRole("button", { name: "Remove Tool" }));
    expect(await screen.findByText("Tool removed")).toBeInTheDocument();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === "PATCH");
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ status: "deleted" });

    await router.navigate("/dashboard/competitors");
    await screen.findByRole("heading", { name: "Block List" });
    const [rival] = await screen.findAllByTestId("relationship-card");
    expect(within(rival as HTMLElement).queryByRole("link", { name: "Rival" })).not.toBeInTheDocument();
    await userEvent.click(within(rival as HTMLElement).getByRole("button", { name: "Remove Competitor" }));
    expect(await screen.findByText("Competitor removed")).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchCalls(fetchMock).filter((call) => call === "GET /api/relationships").length).toBe(3),
    );
  });
});
