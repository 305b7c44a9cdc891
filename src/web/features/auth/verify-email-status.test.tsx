import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { getToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeUser, renderApp } from "@/testing/render-app";

describe("/verify-email", () => {
  it("posts the token once even under StrictMode, then signs in and goes to /setup", async () => {
    localStorage.setItem("left-over", "1");
    const user = makeUser({ organizationId: null, hasCompletedOnboarding: false, role: null });
    const fetchMock = stubFetch({
      "POST /api/verify-email": jsonResponse(200, { token: "fresh-token", user, message: "ok" }),
    });

    const { router } = renderApp("/verify-email?token=abc123");

    await waitFor(() => expect(router.state.location.pathname).toBe("/setup"));
    expect(fetchCalls(fetchMock)).toEqual(["POST /api/verify-email"]);
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe(JSON.stringify({ token: "abc123" }));
    expect(getToken()).toBe("fresh-token");
    expect(localStorage.getItem("left-over")).toBeNull();
    expect(await screen.findByText("Email verified successfully")).toBeInTheDocument();
  });

  it("shows the pending state while the server answers", async () => {
    stubFetch({ "POST /api/verify-email": () => new Promise<Response>(() => {}) });
    renderApp("/verify-email?token=abc123");

    expect(await screen.findByText("Verifying your email address...")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Verifying..." })).toBeDisabled();
  });

  it("shows the server's error with a way back to login", async () => {
    stubFetch({
      "POST /api/verify-email": jsonResponse(400, { message: "Invalid or expired verification token" }),
    });
    const { router } = renderApp("/verify-email?token=used");

    expect(await screen.findByText("Invalid or expired verification token")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Return to Login" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth"));
  });

  it("says so when the link has no token, without calling the server", async () => {
    const fetchMock = stubFetch({});
    renderApp("/verify-email");

    expect(await screen.findByText("No verification token found")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
