import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeRelationship } from "@/testing/fixtures";
import { makeUser, renderApp } from "@/testing/render-app";

function signedIn(routes: Parameters<typeof stubFetch>[0]) {
  setToken("token");
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser() }),
    // The route composes the partner's collateral card below the profile.
    "GET /api/marketing/collateral?organizationId=org-2": jsonResponse(200, []),
    // And the pair's ledger and revenue.
    "GET /api/metrics/partners?days=30": jsonResponse(200, { partners: [] }),
    "GET /api/metrics/partners?days=90": jsonResponse(200, { partners: [] }),
    "GET /api/metrics/revenue?partnerId=org-2": jsonResponse(200, { sent: [], received: [] }),
    ...routes,
  });
}

describe("/dashboard/tools/{id}", () => {
  it("shows the partner's profile and sends an invitation from the header", async () => {
    const relationship = makeRelationship({
      id: "t1",
      strengthScore: 7,
      notes: "Met at SaaStr",
      targetOrg: { isPlatformUser: true, size: 20, industry: "Email" },
    });
    const fetchMock = signedIn({
      "GET /api/relationships/t1": jsonResponse(200, relationship),
      "POST /api/relationships/t1/invite": jsonResponse(200, { message: "Invitation sent" }),
    });
    renderApp("/dashboard/tools/t1");

    expect(await screen.findByRole("heading", { level: 1, name: "Mailfast" })).toBeInTheDocument();
    const profile = screen.getByTestId("tool-profile");
    expect(within(profile).getByText("Verified Partner")).toBeInTheDocument();
    expect(within(profile).getByRole("link", { name: "https://mailfast.io" })).toHaveAttribute(
      "href",
      "https://mailfast.io",
    );
    expect(within(profile).getByText("20 employees")).toBeInTheDocument();
    expect(within(profile).getByText("7/10")).toBeInTheDocument();
    expect(within(profile).getByText("Met at SaaStr")).toBeInTheDocument();
    expect(await screen.findByTestId("balance-sentences")).toHaveTextContent(
      "Last 30 days: You and Mailfast have sent each other as many clicks.",
    );

    await userEvent.click(screen.getByRole("button", { name: "Invite" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByLabelText("Contact email"), "not-an-email");
    await userEvent.click(within(dialog).getByRole("button", { name: "Send Invitation" }));
    expect(await within(dialog).findByText("Invalid email address")).toBeInTheDocument();

    await userEvent.clear(within(dialog).getByLabelText("Contact email"));
    await userEvent.type(within(dialog).getByLabelText("Contact email"), "partner@mailfast.io");
    await userEvent.click(within(dialog).getByRole("button", { name: "Send Invitation" }));

    expect(await screen.findByText("Invitation sent successfully")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    const invite = fetchMock.mock.calls.find(([url]) => String(url).endsWith("/invite"));
    expect(JSON.parse(String(invite?.[1]?.body))).toEqual({ email: "partner@mailfast.io" });
  });

  it("says 'Tool not found' for an unknown relationship", async () => {
    signedIn({ "GET /api/relationships/nope": jsonResponse(404, { message: "Relationship not found" }) });
    renderApp("/dashboard/tools/nope");
    expect(await screen.findByRole("heading", { name: "Tool not found" })).toBeInTheDocument();
  });
});
