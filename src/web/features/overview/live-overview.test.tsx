import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { LIVE_FIGURES_POLL_MS } from "@/lib/live-figures";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeOrganization } from "@/testing/fixtures";
import { makeUser, renderApp } from "@/testing/render-app";
import { makeDailyFigures } from "./daily-figures-fixture";

/** The lazy route, the session and the overview's requests load first; a busy machine is slow. */
const FIRST_LOAD = { timeout: 5000 };

/** The signed-in overview's routes; the clicks answer one more received click each time. */
function signedIn() {
  setToken("token");
  let received = 34;
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser() }),
    "GET /api/organization": jsonResponse(200, makeOrganization()),
    "GET /api/relationships": jsonResponse(200, []),
    "GET /api/metrics/clicks": () => jsonResponse(200, { sent: 12, received: received++ }),
    "GET /api/metrics/leads": jsonResponse(200, { sent: 5, received: 7 }),
    "GET /api/metrics/daily": jsonResponse(200, makeDailyFigures({})),
    "GET /api/activity": jsonResponse(200, []),
    "GET /api/metrics/revenue/daily": jsonResponse(200, []),
    "GET /api/metrics/revenue": jsonResponse(200, { sent: [], received: [] }),
    "GET /api/metrics/partners?days=30": jsonResponse(200, { partners: [] }),
  });
}

const clicksReceived = () =>
  document.querySelector('[data-stat="clicks-received"] [data-testid="stat-value"]')?.textContent;

describe("the overview's live figures", { timeout: 20_000 }, () => {
  it("show a new click without a reload, and the session is not asked again", async () => {
    const fetchMock = signedIn();
    renderApp("/dashboard");
    await waitFor(() => expect(clicksReceived()).toBe("34"), FIRST_LOAD);

    // One poll later (plus a busy machine's slack), with nothing done on the page.
    await waitFor(() => expect(clicksReceived()).toBe("35"), { timeout: LIVE_FIGURES_POLL_MS + 2000 });
    // Every figure of the screen polls (each on its own timer, from when its card mounted).
    await waitFor(() => {
      const calls = fetchCalls(fetchMock);
      for (const path of [
        "/api/metrics/leads",
        "/api/metrics/daily",
        "/api/activity",
        "/api/metrics/revenue",
        "/api/metrics/revenue/daily",
        "/api/metrics/partners?days=30",
      ]) {
        expect(calls.filter((call) => call === `GET ${path}`).length, path).toBeGreaterThanOrEqual(2);
      }
    });
    expect(fetchCalls(fetchMock).filter((call) => call === "GET /api/me")).toEqual(["GET /api/me"]);
  });

  it("shows a new click as soon as the window is focused again, still without asking for the session", async () => {
    const fetchMock = signedIn();
    renderApp("/dashboard");
    await waitFor(() => expect(clicksReceived()).toBe("34"), FIRST_LOAD);
    const before = fetchCalls(fetchMock).filter((call) => call === "GET /api/organization").length;

    const clicksAsked = () =>
      fetchCalls(fetchMock).filter((call) => call === "GET /api/metrics/clicks").length;
    const asked = clicksAsked();
    window.dispatchEvent(new Event("focus"));
    // Asked at once, far sooner than the next poll: the focus asked. (Drawing the answer may take
    // a busy machine longer, so the figure itself is awaited as the first load is.)
    await waitFor(() => expect(clicksAsked()).toBeGreaterThan(asked), { timeout: LIVE_FIGURES_POLL_MS / 3 });
    await waitFor(() => expect(clicksReceived()).toBe("35"), FIRST_LOAD);
    // Every query of the screen is asked again, not only the live figures…
    await waitFor(() =>
      expect(fetchCalls(fetchMock).filter((call) => call === "GET /api/organization").length).toBe(
        before + 1,
      ),
    );
    // …but the signed-in user.
    expect(fetchCalls(fetchMock).filter((call) => call === "GET /api/me")).toEqual(["GET /api/me"]);
    expect(screen.getByRole("heading", { name: "Overview" })).toBeInTheDocument();
  });
});
