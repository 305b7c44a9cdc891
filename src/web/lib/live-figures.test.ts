import { type QueryClient, QueryObserver, type QueryObserverOptions } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LIVE_FIGURES_FAILED_POLL_MS, LIVE_FIGURES_POLL_MS, liveFigures } from "@/lib/live-figures";
import { createQueryClient } from "@/lib/query-client";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";

const CLICKS = "/api/metrics/clicks";

let visibility: DocumentVisibilityState = "visible";
let client: QueryClient;
const stops: Array<() => void> = [];

/** The page shown or hidden, as a tab switch does: the state, then the event. */
function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event("visibilitychange", { bubbles: true }));
}

/** A screen's query, mounted as useQuery mounts it. */
function observe(options: Pick<QueryObserverOptions, "queryKey"> & Partial<QueryObserverOptions>) {
  const observer = new QueryObserver(client, options);
  stops.push(observer.subscribe(() => {}));
  return observer;
}

/** The clicks route, answering one more received click each time it is asked. */
function countingClicks() {
  let received = 0;
  return stubFetch({ [`GET ${CLICKS}`]: () => jsonResponse(200, { sent: 0, received: received++ }) });
}

const asked = (fetchMock: ReturnType<typeof stubFetch>, path: string) =>
  fetchCalls(fetchMock).filter((call) => call === `GET ${path}`).length;

beforeEach(() => {
  vi.useFakeTimers();
  visibility = "visible";
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => visibility });
  client = createQueryClient();
  // What QueryClientProvider does: listen for focus and the network.
  client.mount();
});

afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  client.unmount();
  client.clear();
  vi.useRealTimers();
  // Back to jsdom's own (Document.prototype's).
  Reflect.deleteProperty(document, "visibilityState");
});

describe("live figures", () => {
  it("are asked again every 3 s while the page is visible, and show the new answer", async () => {
    const fetchMock = countingClicks();
    const clicks = observe({ queryKey: [CLICKS], ...liveFigures });
    await vi.advanceTimersByTimeAsync(0);
    expect(asked(fetchMock, CLICKS)).toBe(1);
    expect(clicks.getCurrentResult().data).toEqual({ sent: 0, received: 0 });

    await vi.advanceTimersByTimeAsync(LIVE_FIGURES_POLL_MS);
    expect(asked(fetchMock, CLICKS)).toBe(2);
    expect(clicks.getCurrentResult().data).toEqual({ sent: 0, received: 1 });
    await vi.advanceTimersByTimeAsync(LIVE_FIGURES_POLL_MS * 3);
    expect(asked(fetchMock, CLICKS)).toBe(5);
  });

  it("ask nothing while the tab is hidden, and ask at once when it is shown again", async () => {
    const fetchMock = countingClicks();
    const clicks = observe({ queryKey: [CLICKS], ...liveFigures });
    await vi.advanceTimersByTimeAsync(0);
    setVisibility("hidden");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(asked(fetchMock, CLICKS)).toBe(1);

    setVisibility("visible");
    await vi.advanceTimersByTimeAsync(0);
    expect(asked(fetchMock, CLICKS)).toBe(2);
    expect(clicks.getCurrentResult().data).toEqual({ sent: 0, received: 1 });
    // …and the poll goes on from there.
    await vi.advanceTimersByTimeAsync(LIVE_FIGURES_POLL_MS);
    expect(asked(fetchMock, CLICKS)).toBe(3);
  });

  it("slow down to every 30 s after a failed poll, until an answer comes", async () => {
    let answer = (): Response => jsonResponse(200, { sent: 1, received: 2 });
    const fetchMock = stubFetch({ [`GET ${CLICKS}`]: () => answer() });
    const clicks = observe({ queryKey: [CLICKS], ...liveFigures });
    await vi.advanceTimersByTimeAsync(0);
    answer = () => new Response("", { status: 503, statusText: "Service Unavailable" });
    await vi.advanceTimersByTimeAsync(LIVE_FIGURES_POLL_MS);
    expect(asked(fetchMock, CLICKS)).toBe(2);
    expect(clicks.getCurrentResult().status).toBe("error");

    await vi.advanceTimersByTimeAsync(LIVE_FIGURES_FAILED_POLL_MS - 1);
    expect(asked(fetchMock, CLICKS)).toBe(2);
    answer = () => jsonResponse(200, { sent: 1, received: 3 });
    await vi.advanceTimersByTimeAsync(1);
    expect(asked(fetchMock, CLICKS)).toBe(3);
    expect(clicks.getCurrentResult().data).toEqual({ sent: 1, received: 3 });
    await vi.advanceTimersByTimeAsync(LIVE_FIGURES_POLL_MS);
    expect(asked(fetchMock, CLICKS)).toBe(4);
  });

  it("stop when their screen is left", async () => {
    const fetchMock = countingClicks();
    observe({ queryKey: [CLICKS], ...liveFigures });
    await vi.advanceTimersByTimeAsync(0);
    for (const stop of stops.splice(0)) stop();
    await vi.advanceTimersByTimeAsync(LIVE_FIGURES_POLL_MS * 5);
    expect(asked(fetchMock, CLICKS)).toBe(1);
  });

  it("are asked again when their screen is shown again after one period, once", async () => {
    const fetchMock = countingClicks();
    observe({ queryKey: [CLICKS], ...liveFigures });
    await vi.advanceTimersByTimeAsync(0);
    for (const stop of stops.splice(0)) stop();
    // Back within a period (the route's prefetch, then the screen): the answer in hand serves.
    observe({ queryKey: [CLICKS], ...liveFigures });
    await vi.advanceTimersByTimeAsync(0);
    expect(asked(fetchMock, CLICKS)).toBe(1);
    for (const stop of stops.splice(0)) stop();
    // Back after Buddies and a while: asked on arrival, not at the next poll.
    await vi.advanceTimersByTimeAsync(LIVE_FIGURES_POLL_MS * 2);
    observe({ queryKey: [CLICKS], ...liveFigures });
    await vi.advanceTimersByTimeAsync(0);
    expect(asked(fetchMock, CLICKS)).toBe(2);
  });
});

describe("every screen's queries", () => {
  it("are asked again when the window is focused or the tab shown, never polled", async () => {
    let version = 0;
    const fetchMock = stubFetch({ "GET /api/webhooks": () => jsonResponse(200, [{ version: version++ }]) });
    const webhooks = observe({ queryKey: ["/api/webhooks"] });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(asked(fetchMock, "/api/webhooks")).toBe(1);

    window.dispatchEvent(new Event("focus"));
    await vi.advanceTimersByTimeAsync(0);
    expect(asked(fetchMock, "/api/webhooks")).toBe(2);
    expect(webhooks.getCurrentResult().data).toEqual([{ version: 1 }]);

    // A tab switch: shown again and focused, one GET for both.
    setVisibility("hidden");
    await vi.advanceTimersByTimeAsync(0);
    expect(asked(fetchMock, "/api/webhooks")).toBe(2);
    setVisibility("visible");
    window.dispatchEvent(new Event("focus"));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(asked(fetchMock, "/api/webhooks")).toBe(3);
  });

  it("are not asked on focus while disabled", async () => {
    const fetchMock = stubFetch({});
    observe({ queryKey: ["/api/billing"], enabled: false });
    window.dispatchEvent(new Event("focus"));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
