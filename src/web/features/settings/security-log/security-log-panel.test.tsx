import type { SecurityLogEntry, SecurityLogResponse } from "@shared/security-log";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeUser, renderApp } from "@/testing/render-app";

const FIRST_PAGE = "GET /api/security-log";
const CURSOR = "WyIyMDI2LTAzLTAyVDE0OjA1OjA5LjEyMzQ1NloiLCJlLTIiXQ";
const SECOND_PAGE = `GET /api/security-log?before=${CURSOR}`;

function makeEntry(overrides: Partial<SecurityLogEntry> = {}): SecurityLogEntry {
  return {
    id: "e-1",
    action: "api_key_created",
    actorEmail: "ada@acme.com",
    target: "Production key",
    ipAddress: "203.0.113.7",
    createdAt: "2026-03-02T14:05:09.123Z",
    ...overrides,
  };
}

const page = (entries: SecurityLogEntry[], nextCursor: string | null = null): SecurityLogResponse => ({
  entries,
  nextCursor,
});

function signedIn(routes: Parameters<typeof stubFetch>[0], role: "admin" | "member" = "admin") {
  setToken("token");
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser({ role }) }),
    // The profile tab, shown to a member who follows the log's link: left loading.
    "GET /api/organization": () => new Promise<Response>(() => {}),
    ...routes,
  });
}

const rows = async () => (await screen.findAllByTestId("security-log-entry")).map((row) => within(row));

describe("Settings → Security log", { timeout: 20_000 }, () => {
  it("opens from ?tab=security-log for an admin, as the last tab, listing each entry", async () => {
    signedIn({
      [FIRST_PAGE]: jsonResponse(
        200,
        page([
          makeEntry({
            id: "e-2",
            action: "webhook_updated",
            target: "https://old.acme.com/in → https://new.acme.com/in",
            createdAt: "2026-03-02T15:00:00.000Z",
          }),
          makeEntry({ actorEmail: null, ipAddress: null }),
        ]),
      ),
    });
    renderApp("/dashboard/settings?tab=security-log");

    const tab = await screen.findByRole("tab", { name: "Security log", selected: true });
    expect(screen.getAllByRole("tab").at(-1)).toBe(tab);
    const [changed, created] = await rows();
    if (!changed || !created) throw new Error("two entries expected");
    expect(changed.getByTestId("security-log-action")).toHaveTextContent("Webhook endpoint changed");
    expect(changed.getByTestId("security-log-target")).toHaveTextContent(
      "https://old.acme.com/in → https://new.acme.com/in",
    );
    expect(changed.getByTestId("security-log-actor")).toHaveTextContent("ada@acme.com");
    expect(changed.getByTestId("security-log-address")).toHaveTextContent("203.0.113.7");
    const time = changed.getByText(/Mar 2, 2026/);
    expect(time.tagName).toBe("TIME");
    expect(time).toHaveAttribute("datetime", "2026-03-02T15:00:00.000Z");

    expect(created.getByTestId("security-log-action")).toHaveTextContent("API key created");
    expect(created.getByTestId("security-log-actor")).toHaveTextContent("Someone no longer on the team");
    expect(created.queryByTestId("security-log-address")).toBeNull();
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
  });

  it("loads the older entries while there are more, then stops offering", async () => {
    const fetchMock = signedIn({
      [FIRST_PAGE]: jsonResponse(
        200,
        page([makeEntry({ id: "e-3", action: "sign_in", target: null })], CURSOR),
      ),
      [SECOND_PAGE]: jsonResponse(
        200,
        page([makeEntry({ id: "e-2", action: "member_removed", target: "bob@acme.com" })]),
      ),
    });
    renderApp("/dashboard/settings?tab=security-log");
    expect(await rows()).toHaveLength(1);
    await userEvent.click(screen.getByRole("button", { name: "Load more" }));
    await waitFor(async () => expect(await rows()).toHaveLength(2));
    const [, older] = await rows();
    expect(older?.getByTestId("security-log-action")).toHaveTextContent("Member removed");
    expect(older?.getByTestId("security-log-target")).toHaveTextContent("bob@acme.com");
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
    expect(fetchCalls(fetchMock).filter((call) => call.startsWith("GET /api/security-log"))).toEqual([
      FIRST_PAGE,
      SECOND_PAGE,
    ]);
  });

  it("keeps what it shows when an older page fails, and offers it again", async () => {
    let failures = 1;
    signedIn({
      [FIRST_PAGE]: jsonResponse(200, page([makeEntry({ id: "e-3" })], CURSOR)),
      [SECOND_PAGE]: () =>
        failures-- > 0
          ? jsonResponse(500, { message: "Database unavailable" })
          : jsonResponse(200, page([makeEntry({ id: "e-2" })])),
    });
    renderApp("/dashboard/settings?tab=security-log");
    expect(await rows()).toHaveLength(1);
    await userEvent.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Failed to load more entries. Database unavailable",
    );
    expect(await rows()).toHaveLength(1);
    await userEvent.click(screen.getByRole("button", { name: "Load more" }));
    await waitFor(async () => expect(await rows()).toHaveLength(2));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("says when there is nothing yet", async () => {
    signedIn({ [FIRST_PAGE]: jsonResponse(200, page([])) });
    renderApp("/dashboard/settings?tab=security-log");
    expect(await screen.findByText("No security events yet.")).toBeInTheDocument();
  });

  it("shows the load error with a retry", async () => {
    let failures = 1;
    signedIn({
      [FIRST_PAGE]: () => (failures-- > 0 ? jsonResponse(500, {}) : jsonResponse(200, page([makeEntry()]))),
    });
    renderApp("/dashboard/settings?tab=security-log");
    expect(await screen.findByText("Failed to fetch the security log")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await rows()).toHaveLength(1);
  });

  it("is no tab of a member's, whose link to it opens the profile, and is never asked for", async () => {
    const fetchMock = signedIn({}, "member");
    renderApp("/dashboard/settings?tab=security-log");
    expect(await screen.findByRole("tab", { name: "Profile", selected: true })).toBeInTheDocument();
    expect(screen.getAllByRole("tab").map((tab) => tab.textContent)).not.toContain("Security log");
    expect(fetchCalls(fetchMock)).not.toContain(FIRST_PAGE);
  });
});
