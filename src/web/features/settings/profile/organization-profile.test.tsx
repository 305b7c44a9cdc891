import { LOGO_MAX_BYTES } from "@shared/organizations";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeOrganization } from "@/testing/fixtures";
import { makeUser, renderApp } from "@/testing/render-app";

const ORGANIZATION = makeOrganization({ logoUrl: "/api/logos/acme.com.jpg" });

function signedIn(role: "admin" | "member", routes: Parameters<typeof stubFetch>[0] = {}) {
  setToken("token");
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser({ role }) }),
    "GET /api/organization": jsonResponse(200, ORGANIZATION),
    ...routes,
  });
}

async function openForm() {
  return within(await screen.findByRole("form", { name: "Organization Profile" }));
}

describe("Settings → Organization Profile", () => {
  it("saves the form with size parsed as an integer, omitted when empty", async () => {
    const fetchMock = signedIn("admin", {
      "PATCH /api/organization": jsonResponse(200, { ...ORGANIZATION, name: "Acme Inc" }),
    });
    renderApp("/dashboard/settings");

    const form = await openForm();
    expect(screen.getByText("Update your organization's information")).toBeInTheDocument();
    expect(form.getByLabelText("Industry")).toHaveAttribute("placeholder", "e.g. Software");
    await userEvent.clear(form.getByLabelText("Name"));
    await userEvent.type(form.getByLabelText("Name"), "Acme Inc");
    await userEvent.clear(form.getByLabelText("Size (number of employees)"));
    await userEvent.click(form.getByRole("button", { name: "Save Changes" }));

    expect(await screen.findByText("Settings updated successfully")).toBeInTheDocument();
    const index = fetchCalls(fetchMock).indexOf("PATCH /api/organization");
    expect(JSON.parse(String(fetchMock.mock.calls[index]?.[1]?.body))).toEqual({
      name: "Acme Inc",
      website: "acme.com",
      industry: "Software",
      description: "Acme makes collaboration software.",
    });

    await userEvent.type(form.getByLabelText("Size (number of employees)"), "120");
    await userEvent.click(form.getByRole("button", { name: "Save Changes" }));
    await waitFor(() =>
      expect(fetchCalls(fetchMock).filter((call) => call.startsWith("PATCH"))).toHaveLength(2),
    );
    const last = fetchCalls(fetchMock).lastIndexOf("PATCH /api/organization");
    expect(JSON.parse(String(fetchMock.mock.calls[last]?.[1]?.body))).toMatchObject({ size: 120 });
  });

  it("requires name and website", async () => {
    const fetchMock = signedIn("admin");
    renderApp("/dashboard/settings?tab=organization");

    const form = await openForm();
    await userEvent.clear(form.getByLabelText("Name"));
    await userEvent.clear(form.getByLabelText("Website"));
    await userEvent.click(form.getByRole("button", { name: "Save Changes" }));

    expect(await form.findByText("Organization name is required")).toBeInTheDocument();
    expect(form.getByText("Website is required")).toBeInTheDocument();
    expect(fetchCalls(fetchMock)).not.toContain("PATCH /api/organization");
  });

  it("checks a logo's size and type before uploading, then shows the new one at once", async () => {
    const fetchMock = signedIn("admin", {
      "POST /api/organization/logo": jsonResponse(200, ORGANIZATION),
    });
    renderApp("/dashboard/settings");
    await openForm();
    const input = screen.getByTestId("logo-input");
    const user = userEvent.setup({ applyAccept: false });

    await user.upload(
      input,
      new File([new Uint8Array(LOGO_MAX_BYTES + 1)], "big.png", { type: "image/png" }),
    );
    expect(await screen.findByText("Logo must be less than 2MB")).toBeInTheDocument();
    await user.upload(input, new File(["gif"], "logo.gif", { type: "image/gif" }));
    expect(await screen.findByText("Logo must be a JPEG or PNG image")).toBeInTheDocument();
    expect(fetchCalls(fetchMock)).not.toContain("POST /api/organization/logo");

    await user.upload(input, new File(["png"], "logo.png", { type: "image/png" }));
    expect(await screen.findByText("Logo updated successfully")).toBeInTheDocument();
    const index = fetchCalls(fetchMock).indexOf("POST /api/organization/logo");
    const body = fetchMock.mock.calls[index]?.[1]?.body;
    expect(body).toBeInstanceOf(FormData);
    expect((body as FormData).get("logo")).toBeInstanceOf(File);
    expect(screen.getByRole("img", { name: "Acme logo" }).getAttribute("src")).toMatch(
      /^\/api\/logos\/acme\.com\.jpg\?v=\d+$/,
    );
  });

  it("is read-only for members", async () => {
    signedIn("member");
    renderApp("/dashboard/settings");
    const form = await openForm();
    expect(form.getByLabelText("Name")).toBeDisabled();
    expect(form.getByTestId("logo-input")).toBeDisabled();
    expect(form.getByRole("button", { name: "Save Changes" })).toBeDisabled();
  });

  it("opens the tab named by ?tab and replaces the address when switching", async () => {
    signedIn("admin", { "GET /api/team-members": jsonResponse(200, []) });
    const { router } = renderApp("/dashboard/settings?tab=team");
    expect(await screen.findByRole("tab", { name: "Team", selected: true })).toBeInTheDocument();
    expect(
      await screen.findByText("No team members yet. Invite someone to get started."),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole("tab", { name: "Profile" }));
    await openForm();
    expect(router.state.location.search).toBe("?tab=profile");
    expect(router.state.historyAction).toBe("REPLACE");
  });
});
