import { act, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setToken } from "@/lib/session";
import { jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeUser, renderApp } from "@/testing/render-app";

// The server's PUBLIC_URL, not the address the page is open at.
const ORIGIN = "https://buddy.example.com";
const INSTALL = { organizationId: "org-42", publicUrl: ORIGIN };
const CLICK_TAG = `<script src="${ORIGIN}/api/tracking/click.js" data-org="org-42" async></script>`;
const CONVERSION_TAG = `<script src="${ORIGIN}/api/tracking/conversion.js" data-org="org-42" data-type="signup" async></script>`;

const WEBHOOK_URL = `${ORIGIN}/api/integrations/stripe/webhook/org-42`;

function signedIn(
  install: Response,
  options: { role?: "admin" | "member"; routes?: Parameters<typeof stubFetch>[0] } = {},
) {
  setToken("token");
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser({ role: options.role ?? "member" }) }),
    "GET /api/organization/install": install,
    "GET /api/integrations/stripe": jsonResponse(200, {
      connected: false,
      webhookUrl: WEBHOOK_URL,
      lastEventAt: null,
    }),
    ...options.routes,
  });
}

function stubClipboard() {
  const writeText = vi.fn(async (_text: string) => {});
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
  return writeText;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("Settings → Install", () => {
  it("shows both scripts pre-configured with the organization id and the server's PUBLIC_URL, with the notes", async () => {
    signedIn(jsonResponse(200, INSTALL));
    renderApp("/dashboard/settings?tab=install");

    const click = within(await screen.findByTestId("click-script"));
    expect(click.getByLabelText("Click tracking script")).toHaveTextContent(CLICK_TAG);
    expect(click.getByText(/all of your landing pages/)).toBeInTheDocument();
    expect(click.getByText("The script is pre-configured with your organization id.")).toBeInTheDocument();
    expect(click.getByText("Click ids expire after 30 days.")).toBeInTheDocument();

    const conversion = within(screen.getByTestId("conversion-script"));
    expect(conversion.getByLabelText("Conversion tracking script")).toHaveTextContent(CONVERSION_TAG);
    expect(conversion.getByText(/conversion confirmation pages/)).toBeInTheDocument();
    // The pixel records leads only (CONTRACT §5): the call sends a type, money goes with the key.
    expect(conversion.getByLabelText("Conversion call").textContent).toBe(
      "window.buddy.conversion('signup');",
    );
    expect(conversion.getByText(/It records leads only/)).toHaveTextContent(
      /a value, a currency, your order id or your customer id never go through it/,
    );
    expect(conversion.getByText(/the only way, with Stripe below, to record revenue/)).toBeInTheDocument();
    const curl = conversion.getByLabelText("Server conversion request");
    expect(curl).toHaveTextContent(`curl -X POST ${ORIGIN}/api/marketing/conversion`);
    expect(curl).toHaveTextContent('-H "x-api-key: YOUR_API_KEY"');
    expect(conversion.getByRole("link", { name: "View API documentation" })).toHaveAttribute(
      "href",
      "/dashboard/api-docs",
    );
  });

  it("Copy Script copies the tag and says 'Copied' for 2 seconds", async () => {
    const writeText = stubClipboard();
    signedIn(jsonResponse(200, INSTALL));
    renderApp("/dashboard/settings?tab=install");

    const conversion = within(await screen.findByTestId("conversion-script"));
    const click = within(screen.getByTestId("click-script"));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    fireEvent.click(conversion.getByRole("button", { name: "Copy Script" }));
    await act(async () => {});
    expect(writeText).toHaveBeenCalledWith(CONVERSION_TAG);
    expect(conversion.getByRole("button", { name: "Copied" })).toBeInTheDocument();
    // Each card keeps its own feedback.
    expect(click.getByRole("button", { name: "Copy Script" })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1999));
    expect(conversion.getByRole("button", { name: "Copied" })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(conversion.getByRole("button", { name: "Copy Script" })).toBeInTheDocument();

    fireEvent.click(click.getByRole("button", { name: "Copy Script" }));
    await act(async () => {});
    expect(writeText).toHaveBeenLastCalledWith(CLICK_TAG);
    expect(click.getByRole("button", { name: "Copied" })).toBeInTheDocument();
  });

  it("says 'Failed to fetch organization data' when the install settings do not load", async () => {
    signedIn(jsonResponse(500, {}));
    renderApp("/dashboard/settings?tab=install");
    const alert = within(await screen.findByRole("alert"));
    expect(alert.getByText("Failed to fetch organization data")).toBeInTheDocument();
  });

  it("shows members the Stripe webhook URL read-only, with how to pass the click id to Checkout", async () => {
    signedIn(jsonResponse(200, INSTALL));
    renderApp("/dashboard/settings?tab=install");
    const stripe = within(await screen.findByTestId("connect-stripe"));
    expect(await stripe.findByLabelText("Stripe webhook URL")).toHaveTextContent(WEBHOOK_URL);
    expect(stripe.getByTestId("stripe-status")).toHaveTextContent("Not connected");
    expect(stripe.getByText("Only admins can connect or disconnect Stripe.")).toBeInTheDocument();
    expect(stripe.queryByLabelText("Signing secret")).toBeNull();
    expect(stripe.getByRole("button", { name: "Copy" })).toBeInTheDocument();
    expect(stripe.getByLabelText("Stripe Checkout example")).toHaveTextContent(
      "client_reference_id: clickId",
    );
    expect(stripe.getByTestId("stripe-no-code")).toHaveTextContent(
      "Payment Links, pricing tables and buy buttons need no code",
    );
  });

  it("lets an admin paste the signing secret, refusing anything that is not one, and never shows it again", async () => {
    const fetchMock = signedIn(jsonResponse(200, INSTALL), {
      role: "admin",
      routes: {
        "PUT /api/integrations/stripe": jsonResponse(200, {
          connected: true,
          webhookUrl: WEBHOOK_URL,
          lastEventAt: null,
        }),
      },
    });
    renderApp("/dashboard/settings?tab=install");
    const stripe = within(await screen.findByTestId("connect-stripe"));
    const secret = await stripe.findByLabelText("Signing secret");
    fireEvent.change(secret, { target: { value: "sk_live_nope" } });
    fireEvent.click(stripe.getByRole("button", { name: "Connect Stripe" }));
    expect(
      await stripe.findByText("Paste the webhook signing secret from Stripe: it starts with whsec_"),
    ).toBeInTheDocument();
    fireEvent.change(secret, { target: { value: "whsec_0123456789abcdefghij" } });
    fireEvent.click(stripe.getByRole("button", { name: "Connect Stripe" }));
    expect(await stripe.findByText("Connected")).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ webhookSecret: "whsec_0123456789abcdefghij" });
    expect(stripe.getByLabelText("Signing secret")).toHaveValue("");
    expect(stripe.getByRole("button", { name: "Replace secret" })).toBeInTheDocument();
    expect(stripe.getByRole("button", { name: "Disconnect" })).toBeInTheDocument();
    // Just connected: no event signed with this secret has arrived yet.
    expect(stripe.getByTestId("stripe-last-event")).toHaveTextContent(/^No event yet\./);
  });

  it("says nothing of events while not connected, and lists the events Buddy needs", async () => {
    signedIn(jsonResponse(200, INSTALL));
    renderApp("/dashboard/settings?tab=install");
    const stripe = within(await screen.findByTestId("connect-stripe"));
    expect(await stripe.findByLabelText("Stripe webhook URL")).toBeInTheDocument();
    expect(stripe.queryByTestId("stripe-last-event")).toBeNull();
    expect(stripe.getByText(/Select the events Buddy needs/)).toHaveTextContent(
      "checkout.session.completed, invoice.paid, charge.refunded, charge.dispute.created and charge.dispute.closed",
    );
  });

  it("shows when the last signed event arrived, with the exact time on hover", async () => {
    const lastEventAt = new Date(Date.now() - 5 * 60_000).toISOString();
    signedIn(jsonResponse(200, INSTALL), {
      routes: {
        "GET /api/integrations/stripe": jsonResponse(200, {
          connected: true,
          webhookUrl: WEBHOOK_URL,
          lastEventAt,
        }),
      },
    });
    renderApp("/dashboard/settings?tab=install");
    const stripe = within(await screen.findByTestId("connect-stripe"));
    const line = await stripe.findByTestId("stripe-last-event");
    expect(line).toHaveTextContent("Last event received 5 minutes ago");
    const time = within(line).getByText("5 minutes ago");
    expect(time).toHaveAttribute("datetime", lastEventAt);
    expect(time).toHaveAttribute("title", new Date(lastEventAt).toLocaleString());
  });
});
