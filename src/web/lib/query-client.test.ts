import { QueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { createQueryClient } from "@/lib/query-client";
import { setToken } from "@/lib/session";
import { jsonResponse, stubFetch } from "@/testing/fetch-stub";

describe("createQueryClient", () => {
  it("applies SPEC §7 defaults: no retry, no polling, never stale; and refetches on focus (issue 37)", () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries).toMatchObject({
      retry: false,
      refetchOnWindowFocus: "always",
      refetchInterval: false,
      staleTime: Number.POSITIVE_INFINITY,
    });
    expect(mutations).toMatchObject({ retry: false });
  });

  it("GETs the path given as the query key, with the bearer token and cookies", async () => {
    setToken("t0k3n");
    const fetchMock = stubFetch({ "GET /api/relationships": jsonResponse(200, [{ id: "r1" }]) });

    const data = await createQueryClient().fetchQuery({ queryKey: ["/api/relationships"] });

    expect(data).toEqual([{ id: "r1" }]);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe("/api/relationships");
    expect(init).toMatchObject({ method: "GET", credentials: "include" });
    expect(new Headers(init?.headers).get("Authorization")).toBe("Bearer t0k3n");
  });

  it("fails a query after one attempt, with the SPEC §8 message", async () => {
    const fetchMock = stubFetch({
      "GET /api/billing": new Response("", { status: 503, statusText: "Service Unavailable" }),
    });
    const observer = new QueryObserver(createQueryClient(), { queryKey: ["/api/billing"] });
    const unsubscribe = observer.subscribe(() => {});

    await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe("error"));
    expect(observer.getCurrentResult().error?.message).toBe("503: Service Unavailable");
    expect(fetchMock).toHaveBeenCalledTimes(1);
    unsubscribe();
  });

  it("refuses a query key that is not an API path", async () => {
    await expect(createQueryClient().fetchQuery({ queryKey: ["relationships"] })).rejects.toThrow(
      /must start with an \/api\/ path/,
    );
  });
});
