import { describe, expect, it } from "vitest";
import { ApiError, apiRequest, errorMessage } from "@/lib/api-client";
import { queryClient } from "@/lib/query-client";
import { getToken, setToken } from "@/lib/session";
import { jsonResponse, stubFetch } from "@/testing/fetch-stub";

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe("apiRequest", () => {
  it("sends the stored token as a bearer header, cookies included, and a JSON body", async () => {
    setToken("secret-token");
    const fetchMock = stubFetch({ "POST /api/auth": jsonResponse(200, { ok: true }) });

    await expect(apiRequest("/api/auth", { method: "POST", body: { email: "a@b.co" } })).resolves.toEqual({
      ok: true,
    });

    const [, init] = fetchMock.mock.calls[0] ?? [];
    const headers = new Headers(init?.headers);
    expect(headers.get("Authorization")).toBe("Bearer secret-token");
    expect(headers.get("Content-Type")).toBe("application/json");
    expect(init?.credentials).toBe("include");
    expect(init?.body).toBe(JSON.stringify({ email: "a@b.co" }));
  });

  it("sends no Authorization header without a stored token", async () => {
    const fetchMock = stubFetch({ "GET /api/me": jsonResponse(200, {}) });
    await apiRequest("/api/me");
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).has("Authorization")).toBe(false);
  });

  it("prefers the server's message", async () => {
    stubFetch({ "GET /api/organization": jsonResponse(500, { message: "Internal Server Error" }) });
    const error = await failure(apiRequest("/api/organization"));
    expect(error.status).toBe(500);
    expect(error.message).toBe("Internal Server Error");
    expect(error.body).toEqual({ message: "Internal Server Error" });
  });

  it("says 'status: status text' for a 5xx without a message", async () => {
    stubFetch({
      "GET /api/metrics/clicks": new Response("<html>bad gateway</html>", {
        status: 502,
        statusText: "Bad Gateway",
      }),
    });
    const error = await failure(apiRequest("/api/metrics/clicks"));
    expect(error.message).toBe("502: Bad Gateway");
  });

  it("says 'status: body text' for other failures without a message", async () => {
    stubFetch({ "GET /api/relationships/x": new Response("no such relationship", { status: 404 }) });
    const error = await failure(apiRequest("/api/relationships/x"));
    expect(error.message).toBe("404: no such relationship");
    expect(error.serverMessage).toBeNull();
  });

  it("clears the token and the cache on a 401 with clearToken", async () => {
    setToken("dead-token");
    queryClient.setQueryData(["/api/organization"], { name: "Acme" });
    stubFetch({ "GET /api/me": jsonResponse(401, { message: "Session expired", clearToken: true }) });

    const error = await failure(apiRequest("/api/me"));

    expect(error.clearsToken).toBe(true);
    expect(error.message).toBe("Session expired");
    expect(getToken()).toBeNull();
    expect(queryClient.getQueryData(["/api/organization"])).toBeUndefined();
  });

  it("keeps the token on a 401 without clearToken", async () => {
    setToken("token");
    stubFetch({ "POST /api/auth": jsonResponse(401, { message: "Invalid email or password" }) });
    const error = await failure(apiRequest("/api/auth", { method: "POST", body: {} }));
    expect(error.clearsToken).toBe(false);
    expect(getToken()).toBe("token");
  });
});

describe("errorMessage", () => {
  it("uses the server's message when there is one, else the action's fallback", () => {
    expect(
      errorMessage(new ApiError(429, { message: "Too many attempts" }, "429: "), "Failed to login"),
    ).toBe("Too many attempts");
    expect(errorMessage(new ApiError(500, "", "500: Internal Server Error"), "Failed to login")).toBe(
      "Failed to login",
    );
    expect(errorMessage(new TypeError("Failed to fetch"), "Failed to login")).toBe("Failed to login");
  });
});
