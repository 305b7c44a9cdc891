import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { AddOrganizationControl } from "@/features/relationships/add-organization-control";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeRelationship } from "@/testing/fixtures";
import { renderWithProviders } from "@/testing/render-with-providers";

const SEARCH = "GET /api/organizations/search?query=mai&type=competitor";
const RESULT = {
  id: "org-9",
  name: "Mailfast",
  website: "https://mailfast.io",
  domain: "mailfast.io",
  category: null,
  isPlatformUser: true,
};

function requestBody(fetchMock: ReturnType<typeof stubFetch>, call: string) {
  const index = fetchCalls(fetchMock).indexOf(call);
  return JSON.parse(String(fetchMock.mock.calls[index]?.[1]?.body));
}

describe("AddOrganizationControl", () => {
  it("opens a search that starts at 3 characters and adds the organization clicked", async () => {
    const fetchMock = stubFetch({
      [SEARCH]: jsonResponse(200, [RESULT]),
      "POST /api/relationships": jsonResponse(201, makeRelationship({ type: "competitor" })),
    });
    renderWithProviders(<AddOrganizationControl type="competitor" label="Add Competitor" />);

    await userEvent.click(screen.getByRole("button", { name: "Add Competitor" }));
    const search = screen.getByLabelText("Search organizations");
    expect(screen.getByText("Enter at least 3 characters to search")).toBeInTheDocument();

    await userEvent.type(search, "ma");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByText("Enter at least 3 characters to search")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.type(search, "i");
    const results = await screen.findByRole("list", { name: "Search results" });
    expect(fetchCalls(fetchMock)).toEqual([SEARCH]);
    await userEvent.click(within(results).getByRole("button", { name: /Mailfast/ }));

    expect(await screen.findByText("Competitor added successfully")).toBeInTheDocument();
    expect(requestBody(fetchMock, "POST /api/relationships")).toEqual({
      organizationId: "org-9",
      name: "Mailfast",
      url: "https://mailfast.io",
      type: "competitor",
    });
    // Back to the closed state.
    expect(screen.getByRole("button", { name: "Add Competitor" })).toBeInTheDocument();
    expect(screen.queryByLabelText("Search organizations")).not.toBeInTheDocument();
  });

  it("adds a company that is not listed through the new-organization form", async () => {
    const fetchMock = stubFetch({
      "POST /api/relationships": jsonResponse(201, makeRelationship()),
    });
    renderWithProviders(<AddOrganizationControl type="complement" label="Add Tool" />);

    await userEvent.click(screen.getByRole("button", { name: "Add Tool" }));
    await userEvent.click(screen.getByRole("button", { name: "Can't find it? Add a new company" }));
    const form = screen.getByRole("form", { name: "New organization" });

    await userEvent.click(within(form).getByRole("button", { name: "Add Tool" }));
    expect(await within(form).findByText("Please enter a valid website")).toBeInTheDocument();

    await userEvent.type(within(form).getByLabelText("Name"), "Mailfast");
    await userEvent.type(within(form).getByLabelText("Website"), "mailfast");
    await userEvent.click(within(form).getByRole("button", { name: "Add Tool" }));
    expect(within(form).getByText("Please enter a valid website")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.clear(within(form).getByLabelText("Website"));
    await userEvent.type(within(form).getByLabelText("Website"), "mailfast.io");
    await userEvent.click(within(form).getByRole("button", { name: "Add Tool" }));

    expect(await screen.findByText("Tool added successfully")).toBeInTheDocument();
    expect(requestBody(fetchMock, "POST /api/relationships")).toEqual({
      name: "Mailfast",
      url: "mailfast.io",
      type: "complement",
    });
  });

  it("keeps the form open with the failure notice when adding fails", async () => {
    stubFetch({ "POST /api/relationships": jsonResponse(500, {}) });
    renderWithProviders(<AddOrganizationControl type="complement" label="Add Tool" />);

    await userEvent.click(screen.getByRole("button", { name: "Add Tool" }));
    await userEvent.click(screen.getByRole("button", { name: "Can't find it? Add a new company" }));
    await userEvent.type(screen.getByLabelText("Name"), "Mailfast");
    await userEvent.type(screen.getByLabelText("Website"), "mailfast.io");
    await userEvent.click(screen.getByRole("button", { name: "Add Tool" }));

    expect(await screen.findByText("Failed to add tool")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("form", { name: "New organization" })).toBeInTheDocument());
  });
});
