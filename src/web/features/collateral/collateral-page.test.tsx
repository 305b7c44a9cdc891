import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeCollateral } from "@/testing/fixtures";
import { makeUser, renderApp } from "@/testing/render-app";

const LIST = "GET /api/marketing/collateral";
// Deliberately out of order: the grid must still show active, draft, archived.
const ITEMS = [
  makeCollateral({ id: "c-archived", name: "Old promo", status: "archived", type: "other" }),
  makeCollateral({ id: "c-draft", name: "Spring offer", status: "draft", type: "in_app_message" }),
  makeCollateral({
    id: "c-active",
    name: "Try Acme free",
    status: "active",
    imageUrl: "https://acme.com/og.png",
  }),
];

function signedIn(routes: Parameters<typeof stubFetch>[0]) {
  setToken("token");
  return stubFetch({ "GET /api/me": jsonResponse(200, { user: makeUser() }), ...routes });
}

async function cards() {
  return screen.findAllByTestId("collateral-card");
}

async function card(name: string) {
  const found = (await cards()).find((element) => within(element).queryByRole("heading", { name }));
  if (!found) throw new Error(`no card for ${name}`);
  return within(found);
}

function lastBody(fetchMock: ReturnType<typeof stubFetch>, call: string) {
  const index = fetchCalls(fetchMock).lastIndexOf(call);
  return JSON.parse(String(fetchMock.mock.calls[index]?.[1]?.body));
}

describe("/dashboard/marketing", () => {
  it("shows the cards active, draft, archived, each with its type, status and preview", async () => {
    signedIn({ [LIST]: jsonResponse(200, ITEMS) });
    renderApp("/dashboard/marketing");

    expect(
      await screen.findByRole("heading", { level: 1, name: "Marketing Collateral" }),
    ).toBeInTheDocument();
    const all = await cards();
    expect(all.map((element) => element.dataset.status)).toEqual(["active", "draft", "archived"]);
    expect(all.map((element) => within(element).getByTestId("collateral-type").dataset.type)).toEqual([
      "email_cta",
      "in_app_message",
      "other",
    ]);
    expect(all[2]).toHaveClass("opacity-60");
    expect(all[0]).not.toHaveClass("opacity-60");

    const active = await card("Try Acme free");
    expect(active.getByTestId("collateral-status")).toHaveTextContent("active");
    expect(active.getByRole("img", { name: "Try Acme free" })).toHaveAttribute(
      "src",
      "https://acme.com/og.png",
    );
    expect(active.getByText("Collaboration software for busy teams.")).toBeInTheDocument();
    expect(active.getByTestId("collateral-cta-url")).toHaveTextContent(/^acme\.com\/signup$/);
    expect(active.getByTestId("collateral-cta")).toHaveTextContent("Start free trial");
    expect(active.getByRole("button", { name: "Archive" })).toBeInTheDocument();
    expect((await card("Spring offer")).getByRole("button", { name: "Publish" })).toBeInTheDocument();
    expect((await card("Old promo")).getByRole("button", { name: "Publish" })).toBeInTheDocument();
  });

  it("publishes a draft and archives an active item, then reloads the list", async () => {
    const fetchMock = signedIn({
      [LIST]: jsonResponse(200, ITEMS),
      "PATCH /api/marketing/collateral/c-draft": jsonResponse(200, { ...ITEMS[1], status: "active" }),
      "PATCH /api/marketing/collateral/c-active": jsonResponse(200, { ...ITEMS[2], status: "archived" }),
    });
    renderApp("/dashboard/marketing");

    await userEvent.click((await card("Spring offer")).getByRole("button", { name: "Publish" }));
    await waitFor(() => expect(fetchCalls(fetchMock).filter((call) => call === LIST)).toHaveLength(2));
    expect(lastBody(fetchMock, "PATCH /api/marketing/collateral/c-draft")).toEqual({ status: "active" });

    await userEvent.click((await card("Try Acme free")).getByRole("button", { name: "Archive" }));
    await waitFor(() => expect(fetchCalls(fetchMock).filter((call) => call === LIST)).toHaveLength(3));
    expect(lastBody(fetchMock, "PATCH /api/marketing/collateral/c-active")).toEqual({ status: "archived" });
  });

  it("only logs a failed status update (SPEC §8)", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    signedIn({
      [LIST]: jsonResponse(200, ITEMS),
      "PATCH /api/marketing/collateral/c-draft": jsonResponse(500, { message: "Internal Server Error" }),
    });
    renderApp("/dashboard/marketing");

    await userEvent.click((await card("Spring offer")).getByRole("button", { name: "Publish" }));
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(screen.queryByText("Internal Server Error")).not.toBeInTheDocument();
  });

  it("deletes after confirming, with the SPEC notices", async () => {
    const fetchMock = signedIn({
      [LIST]: jsonResponse(200, ITEMS),
      "DELETE /api/marketing/collateral/c-draft": new Response(null, { status: 204 }),
      "DELETE /api/marketing/collateral/c-archived": jsonResponse(500, {}),
    });
    renderApp("/dashboard/marketing");

    await userEvent.click((await card("Spring offer")).getByRole("button", { name: "Delete" }));
    const confirm = within(await screen.findByRole("alertdialog"));
    expect(confirm.getByText(/Are you sure you want to delete "Spring offer"\?/)).toBeInTheDocument();
    await userEvent.click(confirm.getByRole("button", { name: "Cancel" }));
    expect(fetchCalls(fetchMock)).not.toContain("DELETE /api/marketing/collateral/c-draft");

    await userEvent.click((await card("Spring offer")).getByRole("button", { name: "Delete" }));
    await userEvent.click(
      within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Delete" }),
    );
    expect(await screen.findByText("Collateral deleted successfully")).toBeInTheDocument();

    await userEvent.click((await card("Old promo")).getByRole("button", { name: "Delete" }));
    await userEvent.click(
      within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Delete" }),
    );
    expect(await screen.findByText("Failed to delete collateral")).toBeInTheDocument();
  });

  it("opens the dialog in edit mode from a card", async () => {
    signedIn({ [LIST]: jsonResponse(200, ITEMS) });
    renderApp("/dashboard/marketing");
    await userEvent.click((await card("Spring offer")).getByRole("button", { name: "Edit" }));
    const dialog = within(await screen.findByRole("dialog"));
    expect(dialog.getByRole("heading", { name: "Edit Collateral" })).toBeInTheDocument();
    expect(dialog.getByLabelText("Title")).toHaveValue("Spring offer");
  });

  it("shows a friendly empty state with the one New Collateral button", async () => {
    signedIn({ [LIST]: jsonResponse(200, []) });
    renderApp("/dashboard/marketing");

    const empty = within(await screen.findByTestId("empty-state"));
    expect(empty.getByText(/No collateral yet/)).toBeInTheDocument();
    expect(screen.getAllByRole("button", { name: "New Collateral" })).toHaveLength(1);
    await userEvent.click(empty.getByRole("button", { name: "New Collateral" }));
    expect(await screen.findByRole("heading", { name: "New Collateral" })).toBeInTheDocument();
  });

  it("shows the server's message when the list cannot load", async () => {
    signedIn({ [LIST]: jsonResponse(403, { message: "Complete onboarding first" }) });
    renderApp("/dashboard/marketing");
    const alert = within(await screen.findByRole("alert"));
    expect(alert.getByText("Failed to fetch collateral")).toBeInTheDocument();
    expect(alert.getByText("Complete onboarding first")).toBeInTheDocument();
  });
});
