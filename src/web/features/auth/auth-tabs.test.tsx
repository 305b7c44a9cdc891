import { AUTH_MESSAGES } from "@shared/auth";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { queryClient } from "@/lib/query-client";
import { CURRENT_USER_KEY, getToken } from "@/lib/session";
import { jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeUser, renderApp } from "@/testing/render-app";

describe("/auth", () => {
  it("opens the tab named in ?tab and replaces the URL when switching", async () => {
    const { router } = renderApp("/auth?tab=register&invite=xyz");

    expect(await screen.findByRole("button", { name: "Sign up" })).toBeInTheDocument();
    expect(screen.getByTestId("password-checklist")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("tab", { name: "Login" }));

    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Forgot your password?" })).toHaveAttribute(
      "href",
      "/forgot-password",
    );
    expect(router.state.location.search).toBe("?tab=login&invite=xyz");
    expect(router.state.historyAction).toBe("REPLACE");
  });

  it("signs in: stores the token, caches the user and goes to the dashboard", async () => {
    const user = makeUser();
    localStorage.setItem("left-over", "1");
    const fetchMock = stubFetch({
      "POST /api/auth": jsonResponse(200, { token: "session-token", user, message: "Login successful" }),
    });
    const { router } = renderApp("/auth");

    await userEvent.type(await screen.findByLabelText("Email"), "ada@acme.com");
    await userEvent.type(screen.getByLabelText("Password"), "whatever");
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));

    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe(
      JSON.stringify({ email: "ada@acme.com", password: "whatever", mode: "login" }),
    );
    expect(getToken()).toBe("session-token");
    expect(localStorage.getItem("left-over")).toBeNull();
    expect(queryClient.getQueryData(CURRENT_USER_KEY)).toEqual({ user });
    expect(await screen.findByText("Login successful")).toBeInTheDocument();
  });

  it("shows the server's message when sign-in fails", async () => {
    stubFetch({ "POST /api/auth": jsonResponse(401, { message: "Invalid email or password" }) });
    renderApp("/auth?tab=login");

    await userEvent.type(await screen.findByLabelText("Email"), "ada@acme.com");
    await userEvent.type(screen.getByLabelText("Password"), "wrong");
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));

    expect(await screen.findByText("Invalid email or password")).toBeInTheDocument();
    expect(getToken()).toBeNull();
  });

  it("replaces the register form with the check-your-email message and keeps the sign-up's secret", async () => {
    stubFetch({
      "POST /api/auth": jsonResponse(201, { message: AUTH_MESSAGES.registered, signupSecret: "secret-9" }),
    });
    renderApp("/auth?tab=register");

    await userEvent.type(await screen.findByLabelText("Email"), "new@acme.com");
    await userEvent.type(screen.getByLabelText("Password"), "Str0ng!pass");
    await userEvent.click(screen.getByRole("button", { name: "Sign up" }));

    expect(
      await screen.findByText("Registration successful! Please check your email to verify your account."),
    ).toBeInTheDocument();
    expect(screen.getByText("Registration successful")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Sign up" })).not.toBeInTheDocument();
    // CONTRACT §3: the verification from this browser sends it back.
    expect(localStorage.getItem("buddy.signupSecret")).toBe("secret-9");
  });

  it("registers through a team invitation: the address filled in, the token sent, then sign in", async () => {
    const fetchMock = stubFetch({
      "POST /api/auth": jsonResponse(201, { message: AUTH_MESSAGES.registeredInvited, signupSecret: "s" }),
    });
    renderApp("/auth?tab=register&invite=invite-token&email=colleague%40acme.com");

    expect(await screen.findByLabelText("Email")).toHaveValue("colleague@acme.com");
    await userEvent.type(screen.getByLabelText("Password"), "Str0ng!pass");
    await userEvent.click(screen.getByRole("button", { name: "Sign up" }));

    expect(await screen.findByText(AUTH_MESSAGES.registeredInvited)).toBeInTheDocument();
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({
      email: "colleague@acme.com",
      password: "Str0ng!pass",
      inviteToken: "invite-token",
      mode: "signup",
    });
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("form", { name: "Login" })).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveValue("colleague@acme.com");
  });

  it("signs in through a team invitation with its token, for someone who already has an account", async () => {
    const fetchMock = stubFetch({
      "POST /api/auth": jsonResponse(200, { token: "t", user: makeUser(), message: "Login successful" }),
      "GET /api/me": jsonResponse(200, { user: makeUser() }),
    });
    renderApp("/auth?tab=login&invite=invite-token&email=colleague%40acme.com");
    expect(await screen.findByLabelText("Email")).toHaveValue("colleague@acme.com");
    await userEvent.type(screen.getByLabelText("Password"), "whatever");
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(JSON.parse(String(init?.body))).toMatchObject({ inviteToken: "invite-token", mode: "login" });
  });
});
