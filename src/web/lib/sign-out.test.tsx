import { useQuery } from "@tanstack/react-query";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { getToken, setToken, useSignOut } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { renderWithProviders } from "@/testing/render-with-providers";

/** A screen that polls, as the live figures and the overlap participant do, with a Logout button. */
function PollingScreen() {
  useQuery({ queryKey: ["/api/poll"], refetchInterval: 50 });
  const signOut = useSignOut();
  return (
    <button type="button" onClick={() => signOut.mutate()}>
      Logout
    </button>
  );
}

describe("signing out", () => {
  it("asks nothing while the sign-out is under way: a GET then would meet the revoked session", async () => {
    setToken("token");
    const polls = () => fetchCalls(fetchMock).filter((call) => call === "GET /api/poll").length;
    let pollsWhenAsked = -1;
    let pollsWhenAnswered = -1;
    const fetchMock = stubFetch({
      "GET /api/poll": () => jsonResponse(200, { ok: true }),
      "POST /api/logout": async () => {
        pollsWhenAsked = polls();
        await new Promise((resolve) => setTimeout(resolve, 400));
        pollsWhenAnswered = polls();
        return jsonResponse(200, { message: "Logged out successfully" });
      },
    });
    renderWithProviders(<PollingScreen />);
    await waitFor(() => expect(polls()).toBeGreaterThanOrEqual(3));

    await userEvent.click(screen.getByRole("button", { name: "Logout" }));
    await waitFor(() => expect(getToken()).toBeNull());
    expect(pollsWhenAsked).toBeGreaterThanOrEqual(3);
    expect(pollsWhenAnswered).toBe(pollsWhenAsked);
  });
});
