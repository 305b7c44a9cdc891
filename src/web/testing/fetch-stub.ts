import { vi } from "vitest";

type Handler = (init: RequestInit) => Response | Promise<Response>;

export function jsonResponse(status: number, body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
    ...init,
  });
}

/**
 * Replaces the global fetch for one test: `routes` maps "METHOD /path" to a response or a handler.
 * Any other call rejects, so a test never talks to a real server by accident.
 */
export function stubFetch(routes: Record<string, Response | Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const key = `${init.method ?? "GET"} ${String(input)}`;
    const route = routes[key];
    if (!route) throw new Error(`Unexpected fetch: ${key}`);
    return typeof route === "function" ? route(init) : route.clone();
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

/** The calls a stub received, as "METHOD /path" strings. */
export function fetchCalls(fetchMock: ReturnType<typeof stubFetch>): string[] {
  return fetchMock.mock.calls.map(([input, init]) => `${init?.method ?? "GET"} ${String(input)}`);
}
