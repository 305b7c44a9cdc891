import { describe, expect, it } from "vitest";
import { queryClient } from "@/lib/query-client";
import { prefetchLoader } from "@/lib/route-prefetch";
import { prefetchCurrentUser, setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeUser } from "@/testing/render-app";

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("prefetchCurrentUser", () => {
  it("starts /api/me as the app starts, with a token, on a private path", async () => {
    setToken("token");
    const fetchMock = stubFetch({ "GET /api/me": jsonResponse(200, { user: makeUser() }) });
    prefetchCurrentUser("/dashboard");
    await flush();
    expect(fetchCalls(fetchMock)).toEqual(["GET /api/me"]);
    expect(queryClient.getQueryData(["/api/me"])).toEqual({ user: makeUser() });
  });

  it("fetches nothing without a token, or on a public path", async () => {
    const fetchMock = stubFetch({});
    prefetchCurrentUser("/dashboard");
    setToken("token");
    prefetchCurrentUser("/auth");
    prefetchCurrentUser("/reset-password/");
    await flush();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe("prefetchLoader", () => {
  const loader = prefetchLoader(["/api/metrics/clicks", "/api/activity"]);

  it("starts the screen's GETs once the user is known to be onboarded, without waiting for them", async () => {
    setToken("token");
    let answerClicks: (response: Response) => void = () => {};
    const fetchMock = stubFetch({
      "GET /api/me": jsonResponse(200, { user: makeUser() }),
      "GET /api/metrics/clicks": () => new Promise<Response>((resolve) => (answerClicks = resolve)),
      "GET /api/activity": jsonResponse(200, []),
    });

    await expect(loader()).resolves.toBeNull();
    expect(fetchCalls(fetchMock)).toEqual(["GET /api/me", "GET /api/metrics/clicks", "GET /api/activity"]);
    answerClicks(jsonResponse(200, { sent: 3, received: 4 }));
    await flush();
    expect(queryClient.getQueryData(["/api/metrics/clicks"])).toEqual({ sent: 3, received: 4 });
  });

  it("fetches nothing more for a user who has not finished onboarding", async () => {
    setToken("token");
    const user = makeUser({ organizationId: null, hasCompletedOnboarding: false });
    const fetchMock = stubFetch({ "GET /api/me": jsonResponse(200, { user }) });
    await expect(loader()).resolves.toBeNull();
    await flush();
    expect(fetchCalls(fetchMock)).toEqual(["GET /api/me"]);
  });

  it("fetches nothing without a session, and resolves when a dead token clears it", async () => {
    const fetchMock = stubFetch({
      "GET /api/me": jsonResponse(401, { message: "Your session has expired.", clearToken: true }),
    });
    await expect(loader()).resolves.toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();

    setToken("expired-token");
    await expect(loader()).resolves.toBeNull();
    await flush();
    expect(fetchCalls(fetchMock)).toEqual(["GET /api/me"]);
  });
});

describe("prefetchLoader with answers to settle first", () => {
  const loader = prefetchLoader(["/api/metrics/clicks"], {
    paths: ["/api/onboarding/next-steps"],
    withinMs: 200,
  });
  const steps = { steps: [{ id: "add_buddy", done: false }] };

  it("asks for them first and waits for them before the first render, while the others are already in flight", async () => {
    setToken("token");
    let answerSteps: (response: Response) => void = () => {};
    const fetchMock = stubFetch({
      "GET /api/me": jsonResponse(200, { user: makeUser() }),
      "GET /api/metrics/clicks": () => new Promise<Response>(() => {}),
      "GET /api/onboarding/next-steps": () => new Promise<Response>((resolve) => (answerSteps = resolve)),
    });
    let resolved = false;
    const loaded = loader().then(() => {
      resolved = true;
    });
    await flush();
    // First: a browser sends a few requests to one origin at a time, and the rest queue.
    expect(fetchCalls(fetchMock)).toEqual([
      "GET /api/me",
      "GET /api/onboarding/next-steps",
      "GET /api/metrics/clicks",
    ]);
    expect(resolved).toBe(false);
    answerSteps(jsonResponse(200, steps));
    await loaded;
    expect(queryClient.getQueryData(["/api/onboarding/next-steps"])).toEqual(steps);
  });

  it("waits no longer than its bound for an answer that does not come", async () => {
    setToken("token");
    stubFetch({
      "GET /api/me": jsonResponse(200, { user: makeUser() }),
      "GET /api/metrics/clicks": jsonResponse(200, { sent: 0, received: 0 }),
      "GET /api/onboarding/next-steps": () => new Promise<Response>(() => {}),
    });
    await expect(loader()).resolves.toBeNull();
  });

  it("does not wait at all for an answer already cached, and asks nothing more for it", async () => {
    // A bound longer than the test's own timeout: waiting at all would fail the test.
    const patient = prefetchLoader([], { paths: ["/api/onboarding/next-steps"], withinMs: 60_000 });
    setToken("token");
    const fetchMock = stubFetch({
      "GET /api/me": jsonResponse(200, { user: makeUser() }),
      "GET /api/onboarding/next-steps": () => new Promise<Response>(() => {}),
    });
    queryClient.setQueryData(["/api/onboarding/next-steps"], steps);
    await expect(patient()).resolves.toBeNull();
    expect(fetchCalls(fetchMock)).toEqual(["GET /api/me"]);
  });
});
