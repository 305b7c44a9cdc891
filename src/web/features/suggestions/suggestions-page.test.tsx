import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeOrganization, makeRelationship } from "@/testing/fixtures";
import { makeUser, renderApp } from "@/testing/render-app";

const SUGGESTIONS_CALL = "GET /api/ecosystem/suggestions?domain=acme.com";
const MAILFAST = makeRelationship({
  id: "s1",
  status: "suggested",
  reason: "Integrates with your email provider",
  confidence: 0.9,
  targetOrg: { id: "org-7", name: "Mailfast", isPlatformUser: true },
});
const CHATLY = makeRelationship({
  id: "s2",
  status: "suggested",
  targetOrg: { id: "org-8", name: "Chatly", website: "chatly.com", domain: "chatly.com" },
});
const RESPONSE = { category: null, competitors: [], categories: [], suggestions: [MAILFAST, CHATLY] };

function signedIn(routes: Parameters<typeof stubFetch>[0]) {
  setToken("token");
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser() }),
    "GET /api/organization": jsonResponse(200, makeOrganization()),
    [SUGGESTIONS_CALL]: jsonResponse(200, RESPONSE),
    ...routes,
  });
}

function lastBody(fetchMock: ReturnType<typeof stubFetch>, call: string) {
  const index = fetchCalls(fetchMock).lastIndexOf(call);
  return JSON.parse(String(fetchMock.mock.calls[index]?.[1]?.body));
}

async function card(name: string) {
  const cards = await screen.findAllByTestId("suggestion-card");
  const found = cards.find((element) => within(element).queryByRole("heading", { name }));
  if (!found) throw new Error(`no card for ${name}`);
  return within(found);
}

describe("/dashboard/suggestions", () => {
  it("shows each stored suggestion with its badge, clamped description and reason; search filters", async () => {
    signedIn({});
    renderApp("/dashboard/suggestions");

    const mailfast = await card("Mailfast");
    expect(mailfast.getByText("Platform User")).toBeInTheDocument();
    expect(mailfast.getByText("mailfast.io")).toBeInTheDocument();
    expect(mailfast.getByText("Email")).toBeInTheDocument();
    expect(mailfast.getByText("Transactional email for developers.")).toHaveClass("line-clamp-2");
    expect(mailfast.getByText("Integrates with your email provider")).toBeInTheDocument();
    expect((await card("Chatly")).queryByText("Platform User")).not.toBeInTheDocument();

    await userEvent.type(screen.getByRole("searchbox", { name: "Search" }), "chatly.com");
    expect(screen.getAllByTestId("suggestion-card")).toHaveLength(1);
  });

  it("adds a suggestion as a competitor or a Buddy and removes one, each through its endpoint", async () => {
    const fetchMock = signedIn({
      "POST /api/relationships": jsonResponse(200, { ...MAILFAST, status: "active" }),
      "DELETE /api/relationships/s2": new Response(null, { status: 204 }),
    });
    renderApp("/dashboard/suggestions");

    await userEvent.click((await card("Mailfast")).getByRole("button", { name: "Add as Competitor" }));
    expect(await screen.findByText("Added as competitor")).toBeInTheDocument();
    expect(lastBody(fetchMock, "POST /api/relationships")).toEqual({
      organizationId: "org-7",
      name: "Mailfast",
      url: "https://mailfast.io",
      type: "competitor",
    });

    await userEvent.click((await card("Mailfast")).getByRole("button", { name: "Add as Buddy" }));
    expect(await screen.findByText("Added as Buddy")).toBeInTheDocument();
    expect(lastBody(fetchMock, "POST /api/relationships")).toMatchObject({ type: "complement" });

    await userEvent.click((await card("Chatly")).getByRole("button", { name: "Remove Suggestion" }));
    expect(await screen.findByText("Suggestion removed")).toBeInTheDocument();
    expect(fetchCalls(fetchMock)).toContain("DELETE /api/relationships/s2");
    // Every action reloads the suggestions.
    await waitFor(() =>
      expect(fetchCalls(fetchMock).filter((call) => call === SUGGESTIONS_CALL)).toHaveLength(4),
    );
  });

  it("refreshes with force=true, then reloads", async () => {
    const fetchMock = signedIn({
      [`${SUGGESTIONS_CALL}&force=true`]: jsonResponse(200, RESPONSE),
    });
    renderApp("/dashboard/suggestions");
    await card("Mailfast");

    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));

    expect(await screen.findByText("Successfully refreshed suggestions")).toBeInTheDocument();
    expect(fetchCalls(fetchMock).filter((call) => call.startsWith("GET /api/ecosystem"))).toEqual([
      SUGGESTIONS_CALL,
      `${SUGGESTIONS_CALL}&force=true`,
      SUGGESTIONS_CALL,
    ]);
  });

  it("shows the SPEC empty state, and the failure notices", async () => {
    signedIn({
      [SUGGESTIONS_CALL]: jsonResponse(200, { ...RESPONSE, suggestions: [] }),
      [`${SUGGESTIONS_CALL}&force=true`]: jsonResponse(500, {}),
    });
    renderApp("/dashboard/suggestions");

    expect(await screen.findByText("No suggestions available at the moment.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByText("Failed to refresh suggestions")).toBeInTheDocument();
  });

  it("says 'Failed to fetch suggestions' when they cannot load", async () => {
    signedIn({ [SUGGESTIONS_CALL]: jsonResponse(500, {}) });
    renderApp("/dashboard/suggestions");
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Failed to fetch suggestions")).toBeInTheDocument();
  });
});
