import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeUser, renderApp } from "@/testing/render-app";

const OFF = {
  emailNotifications: false,
  marketingEmails: false,
  newCompetitorAlerts: false,
  weeklyDigest: false,
};

function signedIn(preferences: Response) {
  setToken("token");
  stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser({ role: "member", canApproveMembers: false }) }),
    "GET /api/notification-preferences": preferences,
  });
}

describe("Settings → Notifications", () => {
  it("shows the four toggles, disabled and off, with preferences coming soon", async () => {
    signedIn(jsonResponse(200, OFF));
    renderApp("/dashboard/settings?tab=notifications");
    for (const label of [
      "Email Notifications",
      "Marketing Emails",
      "New Competitor Alerts",
      "Weekly Digest",
    ]) {
      const toggle = await screen.findByRole("switch", { name: label });
      expect(toggle).toBeDisabled();
      expect(toggle).toHaveAttribute("aria-checked", "false");
    }
    expect(screen.getByText("Notification preferences are coming soon.")).toBeInTheDocument();
  });

  it("shows the load error", async () => {
    signedIn(jsonResponse(500, {}));
    renderApp("/dashboard/settings?tab=notifications");
    expect(await screen.findByText("Failed to fetch notification preferences")).toBeInTheDocument();
  });
});
