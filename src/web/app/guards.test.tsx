import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { getToken, setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeUser, renderApp } from "@/testing/render-app";

function signedInAs(user = makeUser()) {
  setToken("valid-token");
  return stubFetch({ "GET /api/me": jsonResponse(200, { user }) });
}

async function expectPath(router: ReturnType<typeof renderApp>["router"], pathname: string) {
  await waitFor(() => expect(router.state.location.pathname).toBe(pathname));
}

describe("route guards (SPEC §2)", () => {
  it("sends a visitor without a token from /dashboard to /auth, without asking the server", async () => {
    const fetchMock = stubFetch({});
    const { router } = renderApp("/dashboard");

    await expectPath(router, "/auth");
    expect(await screen.findByRole("heading", { name: "Welcome to Buddy" })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends unknown paths to /dashboard", async () => {
    signedInAs();
    const { router } = renderApp("/no/such/page");

    await expectPath(router, "/dashboard");
    expect(await screen.findByRole("heading", { name: "Overview" })).toBeInTheDocument();
  });

  it("redirects a signed-in user away from /auth without the current-user query running there", async () => {
    const fetchMock = signedInAs();
    const { router } = renderApp("/auth?tab=register");

    await expectPath(router, "/dashboard");
    expect(await screen.findByRole("heading", { name: "Overview" })).toBeInTheDocument();
    // Once, on /dashboard: never on /auth. (The overview then loads its own data.)
    expect(fetchCalls(fetchMock).filter((call) => call === "GET /api/me")).toEqual(["GET /api/me"]);
  });

  it("sends a user who has not finished onboarding from the dashboard to /setup", async () => {
    signedInAs(makeUser({ organizationId: null, hasCompletedOnboarding: false, role: null }));
    const { router } = renderApp("/dashboard/tools");

    await expectPath(router, "/setup");
    expect(await screen.findByRole("heading", { name: "Tell us about your company" })).toBeInTheDocument();
  });

  it("sends a user with an organization from /setup to /dashboard", async () => {
    signedInAs(makeUser({ hasCompletedOnboarding: false }));
    const { router } = renderApp("/setup");

    await expectPath(router, "/dashboard");
  });

  it("clears a dead token and its cache, then goes to /auth", async () => {
    setToken("expired-token");
    stubFetch({
      "GET /api/me": jsonResponse(401, { message: "Your session has expired.", clearToken: true }),
    });
    const { router } = renderApp("/dashboard");

    await expectPath(router, "/auth");
    expect(getToken()).toBeNull();
    expect(await screen.findByText("Your session has expired.")).toBeInTheDocument();
  });

  it("keeps the token when the user cannot be fetched (SPEC §4), tells 'Failed to fetch user' once and tries again on request", async () => {
    setToken("token");
    let answer = new Response("", { status: 502, statusText: "Bad Gateway" });
    const fetchMock = stubFetch({ "GET /api/me": () => answer });
    const { router } = renderApp("/dashboard");

    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Failed to fetch user")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard");
    expect(getToken()).toBe("token");
    // Asked once and told once, StrictMode's re-run effects included.
    await waitFor(() => expect(document.querySelectorAll("[data-sonner-toast]")).toHaveLength(1));
    expect(fetchCalls(fetchMock)).toEqual(["GET /api/me"]);

    answer = jsonResponse(200, { user: makeUser() });
    await userEvent.click(within(alert).getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("heading", { name: "Overview" })).toBeInTheDocument();
    expect(getToken()).toBe("token");
  });

  it("keeps the token and tells nothing when the page itself cuts the user's fetch (a reload)", async () => {
    setToken("token");
    const fetchMock = stubFetch({
      "GET /api/me": () => Promise.reject(new DOMException("The operation was aborted.", "AbortError")),
    });
    renderApp("/dashboard");

    expect(await screen.findByRole("alert")).toBeInTheDocument();
    expect(getToken()).toBe("token");
    expect(document.querySelectorAll("[data-sonner-toast]")).toHaveLength(0);
    expect(fetchCalls(fetchMock)).toEqual(["GET /api/me"]);
  });

  it("asks again about a token stored while the last one failed, and keeps it", async () => {
    setToken("old-token");
    let answerOld: (response: Response) => void = () => {};
    const fetchMock = stubFetch({
      "GET /api/me": (init) =>
        new Headers(init.headers).get("Authorization") === "Bearer old-token"
          ? new Promise<Response>((resolve) => {
              answerOld = resolve;
            })
          : jsonResponse(200, { user: makeUser() }),
    });
    const { router } = renderApp("/dashboard");

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    setToken("newer-token"); // a sign-in in another tab
    answerOld(new Response("", { status: 502, statusText: "Bad Gateway" }));

    expect(await screen.findByRole("heading", { name: "Overview" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard");
    expect(getToken()).toBe("newer-token");
    expect(screen.queryByText("Failed to fetch user")).toBeNull();
    expect(fetchCalls(fetchMock).filter((call) => call === "GET /api/me")).toHaveLength(2);
  });

  it("keeps the current-user query off on the public screens", async () => {
    const fetchMock = stubFetch({});
    setToken("token");
    const { router } = renderApp("/forgot-password");

    expect(await screen.findByRole("heading", { name: "Reset your password" })).toBeInTheDocument();
    await router.navigate("/reset-password?token=abc");
    expect(await screen.findByLabelText("New Password")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("renders dashboard pages inside the shell with the active entry marked", async () => {
    signedInAs();
    renderApp("/dashboard/tools/rel-1");

    const nav = await screen.findByRole("navigation", { name: "Main" });
    expect(within(nav).getByRole("link", { name: "Buddies" })).toHaveAttribute("aria-current", "page");
    expect(within(nav).getByRole("link", { name: "Overview" })).not.toHaveAttribute("aria-current");
    expect(
      within(nav)
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(["Overview", "Buddies", "Marketing", "Suggestions", "Block List", "API Docs", "Settings"]);
    expect(screen.getByRole("button", { name: "Logout" })).toBeInTheDocument();
  });

  it("takes a notice mail's link opened signed out on to its page once signed in, once", async () => {
    stubFetch({});
    const signedOut = renderApp("/dashboard/tools?add=quillmail.com");
    await expectPath(signedOut.router, "/auth");
    signedOut.unmount();

    // Signing in lands on the overview, which goes on to the link.
    stubFetch({
      "GET /api/me": jsonResponse(200, { user: makeUser() }),
      "GET /api/relationships": jsonResponse(200, []),
      "GET /api/organizations/search?query=quillmail.com&type=complement": jsonResponse(200, []),
    });
    setToken("valid-token");
    const signedIn = renderApp("/dashboard");
    await expectPath(signedIn.router, "/dashboard/tools");
    expect(signedIn.router.state.location.search).toBe("?add=quillmail.com");
    signedIn.unmount();

    // Once: the next visit to the overview stays there.
    signedInAs();
    const later = renderApp("/dashboard");
    expect(await screen.findByRole("heading", { name: "Overview" })).toBeInTheDocument();
    expect(later.router.state.location.pathname).toBe("/dashboard");
  });
});
