import { NOTIFICATION_PREFERENCES } from "@shared/notifications";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeUser, renderApp } from "@/testing/render-app";

const DEFAULTS = {
  emailNotifications: true,
  marketingEmails: false,
  newCompetitorAlerts: true,
  weeklyDigest: true,
};

function signedIn(routes: Parameters<typeof stubFetch>[0]) {
  setToken("token");
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser({ role: "member", canApproveMembers: false }) }),
    ...routes,
  });
}

const PATCH = "PATCH /api/notification-preferences";

function bodyOf(fetchMock: ReturnType<typeof stubFetch>, call: string) {
  const init = fetchMock.mock.calls[fetchCalls(fetchMock).lastIndexOf(call)]?.[1];
  return JSON.parse(String(init?.body));
}

describe("Settings → Notifications", () => {
  it("shows the four toggles as the person's own choices, each saying what it sends", async () => {
    signedIn({ "GET /api/notification-preferences": jsonResponse(200, DEFAULTS) });
    renderApp("/dashboard/settings?tab=notifications");
    for (const { key, label } of NOTIFICATION_PREFERENCES) {
      const toggle = await screen.findByRole("switch", { name: label });
      expect(toggle).toBeEnabled();
      expect(toggle).toHaveAttribute("aria-checked", String(DEFAULTS[key]));
    }
    expect(screen.getByRole("switch", { name: "Marketing Emails" })).toHaveAccessibleDescription(
      "Product news from Buddy. Nothing is sent yet.",
    );
  });

  it("saves a switch at once, its own key alone, with a success notice", async () => {
    const fetchMock = signedIn({
      "GET /api/notification-preferences": jsonResponse(200, DEFAULTS),
      [PATCH]: jsonResponse(200, { ...DEFAULTS, weeklyDigest: false }),
    });
    renderApp("/dashboard/settings?tab=notifications");
    const digest = await screen.findByRole("switch", { name: "Weekly Digest" });
    await userEvent.click(digest);
    expect(await screen.findByText("Notification preferences saved")).toBeInTheDocument();
    expect(bodyOf(fetchMock, PATCH)).toEqual({ weeklyDigest: false });
    expect(digest).toHaveAttribute("aria-checked", "false");
  });

  it("springs back with the server's message when saving fails", async () => {
    signedIn({
      "GET /api/notification-preferences": jsonResponse(200, DEFAULTS),
      [PATCH]: jsonResponse(500, { message: "Database unavailable" }),
    });
    renderApp("/dashboard/settings?tab=notifications");
    const alerts = await screen.findByRole("switch", { name: "New Competitor Alerts" });
    await userEvent.click(alerts);
    expect(await screen.findByText("Database unavailable")).toBeInTheDocument();
    expect(alerts).toHaveAttribute("aria-checked", "true");
  });

  it("shows a loading state while the preferences load", async () => {
    signedIn({ "GET /api/notification-preferences": () => new Promise<Response>(() => {}) });
    renderApp("/dashboard/settings?tab=notifications");
    const card = (await screen.findByText("Notifications", { selector: "[data-slot=card-title]" })).closest(
      "[data-slot=card]",
    ) as HTMLElement;
    expect(await within(card).findByRole("status", { name: "Loading" })).toBeInTheDocument();
  });

  it("shows the load error with a retry", async () => {
    signedIn({ "GET /api/notification-preferences": jsonResponse(500, {}) });
    renderApp("/dashboard/settings?tab=notifications");
    expect(await screen.findByText("Failed to fetch notification preferences")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});
