import { TEAM_MESSAGES, type TeamMember } from "@shared/team";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeUser, renderApp } from "@/testing/render-app";

const LIST = "GET /api/team-members";

const member = (overrides: Partial<TeamMember> = {}): TeamMember => ({
  id: "m-1",
  role: "admin",
  status: "active",
  invited: false,
  user: { email: "ada@acme.com" },
  createdAt: "2026-11-01T10:00:00.000Z",
  ...overrides,
});

const TEAM = [
  member(),
  member({ id: "m-2", role: "member", status: "pending", user: { email: "applicant@acme.com" } }),
  member({
    id: "inv-1",
    role: "member",
    status: "pending",
    invited: true,
    user: { email: "invited@acme.com" },
  }),
];

function signedIn(routes: Parameters<typeof stubFetch>[0], user = makeUser()) {
  setToken("token");
  return stubFetch({ "GET /api/me": jsonResponse(200, { user }), ...routes });
}

const rowFor = async (email: string) => {
  const rows = await screen.findAllByTestId("team-member-row");
  const row = rows.find((item) => item.textContent?.includes(email));
  if (!row) throw new Error(`no row for ${email}`);
  return within(row);
};

afterEach(() => vi.restoreAllMocks());

describe("Settings → Team", () => {
  it("lists members with their role and a Pending badge; Approve only for people awaiting approval", async () => {
    signedIn({ [LIST]: jsonResponse(200, TEAM) });
    renderApp("/dashboard/settings?tab=team");

    const self = await rowFor("ada@acme.com");
    expect(self.getByText("Admin")).toBeInTheDocument();
    expect(self.queryByText("Pending")).not.toBeInTheDocument();
    expect(self.getByRole("button", { name: "Remove" })).toBeInTheDocument();

    const applicant = await rowFor("applicant@acme.com");
    expect(applicant.getByText("Pending")).toBeInTheDocument();
    expect(applicant.getByRole("button", { name: "Approve" })).toBeInTheDocument();

    const invited = await rowFor("invited@acme.com");
    expect(invited.getByText("Pending")).toBeInTheDocument();
    expect(invited.queryByRole("button", { name: "Approve" })).not.toBeInTheDocument();
  });

  it("hides Approve without the permission flag, and members still see Invite and Remove", async () => {
    signedIn({ [LIST]: jsonResponse(200, TEAM) }, makeUser({ role: "member", canApproveMembers: false }));
    renderApp("/dashboard/settings?tab=team");
    const applicant = await rowFor("applicant@acme.com");
    expect(applicant.queryByRole("button", { name: "Approve" })).not.toBeInTheDocument();
    expect(applicant.getByRole("button", { name: "Remove" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Invite Member" })).toBeInTheDocument();
  });

  it("approves, and only logs a failure", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const fetchMock = signedIn({
      [LIST]: jsonResponse(200, TEAM),
      "POST /api/team-members/m-2/approve": jsonResponse(500, { message: "Boom" }),
    });
    renderApp("/dashboard/settings?tab=team");
    await userEvent.click((await rowFor("applicant@acme.com")).getByRole("button", { name: "Approve" }));
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(fetchCalls(fetchMock)).toContain("POST /api/team-members/m-2/approve");
    expect(screen.queryByText("Boom")).not.toBeInTheDocument();
  });

  it("removes a member after confirmation and refreshes the list", async () => {
    let removed = false;
    const fetchMock = signedIn({
      [LIST]: () => jsonResponse(200, removed ? TEAM.filter((m) => m.id !== "m-2") : TEAM),
      "DELETE /api/team-members/m-2": () => {
        removed = true;
        return new Response(null, { status: 204 });
      },
    });
    renderApp("/dashboard/settings?tab=team");
    await userEvent.click((await rowFor("applicant@acme.com")).getByRole("button", { name: "Remove" }));
    const dialog = within(await screen.findByRole("alertdialog"));
    expect(
      dialog.getByText("applicant@acme.com will lose access to your organization at once."),
    ).toBeInTheDocument();
    await userEvent.click(dialog.getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(screen.queryByText("applicant@acme.com")).not.toBeInTheDocument());
    expect(fetchCalls(fetchMock)).toContain("DELETE /api/team-members/m-2");
  });

  it("shows the empty text", async () => {
    signedIn({ [LIST]: jsonResponse(200, []) });
    renderApp("/dashboard/settings?tab=team");
    expect(
      await screen.findByText("No team members yet. Invite someone to get started."),
    ).toBeInTheDocument();
  });

  it("shows the load error", async () => {
    signedIn({ [LIST]: jsonResponse(500, {}) });
    renderApp("/dashboard/settings?tab=team");
    expect(await screen.findByText("Failed to fetch team members")).toBeInTheDocument();
  });
});

describe("Invite Member dialog", () => {
  async function openDialog() {
    await userEvent.click(await screen.findByRole("button", { name: "Invite Member" }));
    return within(await screen.findByRole("dialog"));
  }

  it("invites as member by default; 'Invitation sent' closes the dialog", async () => {
    const fetchMock = signedIn({
      [LIST]: jsonResponse(200, [member()]),
      "POST /api/team-members/invite": jsonResponse(201, {
        message: TEAM_MESSAGES.invitationSent,
        member: member({ id: "inv-2", status: "pending", invited: true, user: { email: "new@acme.com" } }),
      }),
    });
    renderApp("/dashboard/settings?tab=team");
    const dialog = await openDialog();
    expect(dialog.getByRole("combobox", { name: "Role" })).toHaveTextContent("Member");
    await userEvent.type(dialog.getByLabelText("Email"), "new@acme.com");
    await userEvent.click(dialog.getByRole("button", { name: "Send Invitation" }));

    expect(await screen.findByText("Invitation sent")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    const call = fetchMock.mock.calls.find(([url]) => String(url) === "/api/team-members/invite");
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ email: "new@acme.com", role: "member" });
  });

  it("checks the e-mail, and shows the server's refusal inline, else the default text", async () => {
    signedIn({
      [LIST]: jsonResponse(200, [member()]),
      "POST /api/team-members/invite": jsonResponse(409, { message: TEAM_MESSAGES.alreadyInTeam }),
    });
    renderApp("/dashboard/settings?tab=team");
    const dialog = await openDialog();
    await userEvent.click(dialog.getByRole("button", { name: "Send Invitation" }));
    expect(
      await dialog.findByText(/email/i, { selector: "[data-slot=form-message], p" }),
    ).toBeInTheDocument();

    await userEvent.type(dialog.getByLabelText("Email"), "ada@acme.com");
    await userEvent.click(dialog.getByRole("button", { name: "Send Invitation" }));
    expect(await dialog.findByRole("alert")).toHaveTextContent(TEAM_MESSAGES.alreadyInTeam);
    expect(screen.getByRole("dialog")).toBeInTheDocument();
  });

  it("falls back to 'Failed to invite team member'", async () => {
    signedIn({
      [LIST]: jsonResponse(200, [member()]),
      "POST /api/team-members/invite": jsonResponse(500, {}),
    });
    renderApp("/dashboard/settings?tab=team");
    const dialog = await openDialog();
    await userEvent.type(dialog.getByLabelText("Email"), "new@acme.com");
    await userEvent.click(dialog.getByRole("button", { name: "Send Invitation" }));
    expect(await dialog.findByText("Failed to invite team member")).toBeInTheDocument();
  });
});
