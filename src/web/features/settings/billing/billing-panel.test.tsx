import type { BillingInfo } from "@shared/billing";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeUser, renderApp } from "@/testing/render-app";

const FREE: BillingInfo = {
  plan: "free",
  subscriptionStatus: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
};
const ACTIVE: BillingInfo = {
  plan: "pro",
  subscriptionStatus: "active",
  currentPeriodEnd: "2026-12-24T12:00:00.000Z",
  cancelAtPeriodEnd: false,
};

function signedIn(routes: Parameters<typeof stubFetch>[0], role: "admin" | "member" = "admin") {
  setToken("token");
  return stubFetch({ "GET /api/me": jsonResponse(200, { user: makeUser({ role }) }), ...routes });
}

afterEach(() => vi.restoreAllMocks());

describe("Settings → Billing", () => {
  it("shows the free plan and the Pro card under the beta overlay, Subscribe buttons disabled", async () => {
    signedIn({ "GET /api/billing": jsonResponse(200, FREE) });
    renderApp("/dashboard/settings?tab=billing");

    // The file's first render also loads the lazy settings screen: more than findBy's default second
    // on a busy machine.
    expect(await screen.findByTestId("current-plan", {}, { timeout: 5000 })).toHaveTextContent("Free");
    expect(screen.getByText("$249")).toBeInTheDocument();
    expect(screen.getByText("or $149/month billed annually ($1,788/year)")).toBeInTheDocument();
    for (const feature of [
      "Unlimited buddy relationships",
      "Advanced analytics and reporting",
      "Priority support",
      "Custom branding",
    ]) {
      expect(screen.getByText(feature)).toBeInTheDocument();
    }
    expect(screen.getByRole("note")).toHaveTextContent("Platform fees are waived while Buddy is in beta.");
    expect(screen.getByRole("button", { name: "Subscribe Monthly" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Subscribe Annually" })).toBeDisabled();
    expect(screen.queryByRole("button", { name: "Cancel Subscription" })).not.toBeInTheDocument();
  });

  it("shows an active subscription's next billing date and cancels it", async () => {
    const fetchMock = signedIn({
      "GET /api/billing": jsonResponse(200, ACTIVE),
      "POST /api/billing/cancel": jsonResponse(200, { ...ACTIVE, cancelAtPeriodEnd: true }),
    });
    renderApp("/dashboard/settings?tab=billing");
    expect(await screen.findByTestId("current-plan")).toHaveTextContent("Pro");
    expect(screen.getByText("Next billing date: December 24, 2026")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Subscribe Monthly" })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Cancel Subscription" }));
    expect(
      await screen.findByText("Your subscription is set to cancel at the end of the current billing period."),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Resume Subscription" })).toBeInTheDocument();
    expect(fetchCalls(fetchMock)).toContain("POST /api/billing/cancel");
  });

  it.each(["trialing", "past_due"])(
    "treats a %s subscription as the paid one the server counts it as",
    async (subscriptionStatus) => {
      signedIn({ "GET /api/billing": jsonResponse(200, { ...ACTIVE, subscriptionStatus }) });
      renderApp("/dashboard/settings?tab=billing");
      expect(await screen.findByTestId("current-plan")).toHaveTextContent("Pro");
      expect(screen.getByText("Next billing date: December 24, 2026")).toBeInTheDocument();
      expect(screen.getByRole("button", { name: "Cancel Subscription" })).toBeInTheDocument();
    },
  );

  it("resumes a subscription set to cancel", async () => {
    signedIn({
      "GET /api/billing": jsonResponse(200, { ...ACTIVE, cancelAtPeriodEnd: true }),
      "POST /api/billing/reactivate": jsonResponse(200, ACTIVE),
    });
    renderApp("/dashboard/settings?tab=billing");
    await userEvent.click(await screen.findByRole("button", { name: "Resume Subscription" }));
    expect(await screen.findByRole("button", { name: "Cancel Subscription" })).toBeInTheDocument();
  });

  it("goes to the provider's portal, and only logs a refusal", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const fetchMock = signedIn({
      "GET /api/billing": jsonResponse(200, FREE),
      "POST /api/billing/portal": jsonResponse(503, { message: "Billing is not available during the beta" }),
    });
    renderApp("/dashboard/settings?tab=billing");
    await userEvent.click(await screen.findByRole("button", { name: "Manage Subscription" }));
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(fetchCalls(fetchMock)).toContain("POST /api/billing/portal");
    expect(screen.queryByText("Billing is not available during the beta")).not.toBeInTheDocument();
    expect(screen.getByTestId("current-plan")).toHaveTextContent("Free");
  });

  it("opens the portal's address", async () => {
    const assign = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, assign });
    signedIn({
      "GET /api/billing": jsonResponse(200, FREE),
      "POST /api/billing/portal": jsonResponse(200, { url: "https://billing.stripe.com/p/session/x" }),
    });
    renderApp("/dashboard/settings?tab=billing");
    await userEvent.click(await screen.findByRole("button", { name: "Manage Subscription" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://billing.stripe.com/p/session/x"));
  });

  it("shows the load error", async () => {
    signedIn({ "GET /api/billing": jsonResponse(500, {}) });
    renderApp("/dashboard/settings?tab=billing");
    expect(await screen.findByText("Failed to fetch billing data")).toBeInTheDocument();
  });

  it("does not ask the server for a member", async () => {
    const fetchMock = signedIn({}, "member");
    renderApp("/dashboard/settings?tab=billing");
    expect(await screen.findByText("Only admins can manage billing.")).toBeInTheDocument();
    expect(fetchCalls(fetchMock)).not.toContain("GET /api/billing");
  });
});
