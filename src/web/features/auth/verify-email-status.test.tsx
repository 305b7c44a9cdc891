import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { getToken } from "@/lib/session";
import { keepSignupSecret } from "@/lib/signup-secret";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeUser, renderApp } from "@/testing/render-app";

const newcomer = () => makeUser({ organizationId: null, hasCompletedOnboarding: false, role: null });

describe("/verify-email in the browser that signed up", () => {
  it("posts the token with the sign-up's secret once even under StrictMode, then signs in and goes to /setup", async () => {
    localStorage.setItem("left-over", "1");
    keepSignupSecret("secret-1");
    const fetchMock = stubFetch({
      "POST /api/verify-email": jsonResponse(200, {
        token: "fresh-token",
        user: newcomer(),
        message: "ok",
        setPasswordToken: null,
      }),
    });

    const { router } = renderApp("/verify-email?token=abc123");

    await waitFor(() => expect(router.state.location.pathname).toBe("/setup"));
    // /setup may already ask for its website suggestion; the verification itself went once.
    expect(fetchCalls(fetchMock).filter((call) => call.includes("/api/verify-email"))).toEqual([
      "POST /api/verify-email",
    ]);
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe(
      JSON.stringify({ token: "abc123", signupSecret: "secret-1" }),
    );
    expect(getToken()).toBe("fresh-token");
    // SPEC §4: storage cleared, the secret with it.
    expect(localStorage.getItem("left-over")).toBeNull();
    expect(localStorage.getItem("buddy.signupSecret")).toBeNull();
    expect(await screen.findByText("Email verified successfully")).toBeInTheDocument();
  });

  it("shows the pending state while the server answers", async () => {
    keepSignupSecret("secret-1");
    stubFetch({ "POST /api/verify-email": () => new Promise<Response>(() => {}) });
    // A token of its own: this request never ends, and a later test's would join it.
    renderApp("/verify-email?token=never-answered");

    expect(await screen.findByText("Verifying your email address...")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Verifying..." })).toBeDisabled();
  });

  it("shows the server's error with a way back to login", async () => {
    keepSignupSecret("secret-1");
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

describe("/verify-email in a browser that did not sign up", () => {
  it("sends nothing until asked, then verifies without a secret and has a password chosen before going home", async () => {
    const user = newcomer();
    const fetchMock = stubFetch({
      "POST /api/verify-email": jsonResponse(200, {
        token: "verifier-token",
        user,
        message: "ok",
        setPasswordToken: "reset-1",
      }),
      "POST /api/reset-password": jsonResponse(200, { message: "ok" }),
      "POST /api/auth": jsonResponse(200, { token: "password-token", user, message: "ok" }),
    });
    const { router } = renderApp("/verify-email?token=abc123");

    // A scanner that runs the page stops here.
    const verify = await screen.findByRole("button", { name: "Verify my email address" });
    expect(fetchMock).not.toHaveBeenCalled();
    await userEvent.click(verify);

    expect(await screen.findByRole("form", { name: "Choose a password" })).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe(JSON.stringify({ token: "abc123" }));
    // Signed in already, though the page stays to take the password.
    expect(getToken()).toBe("verifier-token");
    expect(router.state.location.pathname).toBe("/verify-email");

    await userEvent.type(screen.getByLabelText("New Password"), "Brand-new-1");
    await userEvent.type(screen.getByLabelText("Confirm Password"), "Brand-new-1");
    await userEvent.click(screen.getByRole("button", { name: "Set password" }));

    await waitFor(() => expect(router.state.location.pathname).toBe("/setup"));
    expect(fetchCalls(fetchMock)).toEqual([
      "POST /api/verify-email",
      "POST /api/reset-password",
      "POST /api/auth",
    ]);
    expect(fetchMock.mock.calls[1]?.[1]?.body).toBe(
      JSON.stringify({ token: "reset-1", password: "Brand-new-1" }),
    );
    expect(fetchMock.mock.calls[2]?.[1]?.body).toBe(
      JSON.stringify({ email: user.email, password: "Brand-new-1", mode: "login" }),
    );
    expect(getToken()).toBe("password-token");
    expect(await screen.findByText("Password saved")).toBeInTheDocument();
  });

  it("lets the password wait: skipping goes home signed in", async () => {
    stubFetch({
      "POST /api/verify-email": jsonResponse(200, {
        token: "verifier-token",
        user: newcomer(),
        message: "ok",
        setPasswordToken: "reset-1",
      }),
    });
    const { router } = renderApp("/verify-email?token=abc123");

    await userEvent.click(await screen.findByRole("button", { name: "Verify my email address" }));
    await userEvent.click(await screen.findByRole("button", { name: "Skip for now" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/setup"));
    expect(getToken()).toBe("verifier-token");
  });
});
