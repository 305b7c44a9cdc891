import { DELETION_MESSAGES } from "@shared/deletion";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeOrganization } from "@/testing/fixtures";
import { makeUser, renderApp } from "@/testing/render-app";

function signedIn(role: "admin" | "member", routes: Parameters<typeof stubFetch>[0] = {}) {
  setToken("token");
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser({ role }) }),
    "GET /api/organization": jsonResponse(200, makeOrganization({ name: "Acme" })),
    ...routes,
  });
}

/** The JSON body of the first call to `route` ("METHOD /path"). */
function bodyOf(fetchMock: ReturnType<typeof stubFetch>, route: string) {
  const index = fetchCalls(fetchMock).indexOf(route);
  return JSON.parse(String(fetchMock.mock.calls[index]?.[1]?.body));
}

describe("Settings → profile: deletion (issue 38)", () => {
  it("asks an admin to type the organization's name, then says to check the mailbox", async () => {
    const fetchMock = signedIn("admin", {
      "POST /api/organization/deletion": jsonResponse(202, { message: DELETION_MESSAGES.mailSent }),
    });
    renderApp("/dashboard/settings");

    const form = within(await screen.findByRole("form", { name: "Delete organization" }));
    const submit = form.getByRole("button", { name: "Delete organization" });
    expect(submit).toBeDisabled();
    await userEvent.type(form.getByLabelText("Type Acme to confirm"), "Acm");
    expect(form.getByText(DELETION_MESSAGES.nameMismatch)).toBeInTheDocument();
    expect(submit).toBeDisabled();
    await userEvent.type(form.getByLabelText("Type Acme to confirm"), "e");
    await userEvent.click(submit);

    expect(await screen.findByRole("status")).toHaveTextContent(DELETION_MESSAGES.mailSent);
    expect(bodyOf(fetchMock, "POST /api/organization/deletion")).toEqual({ name: "Acme" });
  });

  it("shows members their own account's deletion only", async () => {
    signedIn("member", {
      "POST /api/account/deletion": jsonResponse(202, { message: DELETION_MESSAGES.mailSent }),
    });
    renderApp("/dashboard/settings");

    await userEvent.click(await screen.findByRole("button", { name: "Delete my account" }));
    expect(await screen.findByRole("status")).toHaveTextContent(DELETION_MESSAGES.mailSent);
    expect(screen.queryByRole("form", { name: "Delete organization" })).not.toBeInTheDocument();
  });

  it("confirms from the mailed link's page with its token, and forgets the session", async () => {
    const fetchMock = signedIn("member", {
      "POST /api/deletion/confirm": jsonResponse(200, {
        kind: "account",
        message: DELETION_MESSAGES.accountDeleted,
      }),
    });
    renderApp("/confirm-deletion?token=abc_123");

    await userEvent.click(await screen.findByRole("button", { name: "Delete for good" }));
    expect(await screen.findByRole("status")).toHaveTextContent(DELETION_MESSAGES.accountDeleted);
    expect(bodyOf(fetchMock, "POST /api/deletion/confirm")).toEqual({ token: "abc_123" });
    expect(localStorage.getItem("token")).toBeNull();
    expect(screen.getByRole("link", { name: "Go to sign in" })).toHaveAttribute("href", "/auth");
  });
});
