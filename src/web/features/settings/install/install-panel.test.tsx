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

function signedIn(install: Response) {
  setToken("token");
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser({ role: "member" }) }),
    "GET /api/organization/install": install,
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
    expect(conversion.getByLabelText("Conversion call")).toHaveTextContent(
      "window.buddy.conversion('purchase', 49);",
    );
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
});
