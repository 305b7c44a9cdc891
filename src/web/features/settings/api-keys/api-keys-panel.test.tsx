import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeApiKey } from "@/testing/fixtures";
import { makeUser, renderApp } from "@/testing/render-app";

const LIST = "GET /api/api-keys";
const FULL_KEY = "bk_live_4f9c2e7d1a6b8c3e5f0a9d2b7c4e1f6a8b3d5c7e9f1a2b4c";

function signedIn(routes: Parameters<typeof stubFetch>[0], role: "admin" | "member" = "admin") {
  setToken("token");
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser({ role }) }),
    // The webhooks share the tab, below the keys (webhooks-panel.test.tsx).
    "GET /api/webhooks": jsonResponse(200, []),
    ...routes,
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

describe("Settings → API Keys", () => {
  it("lists each key masked, with its dates, and links to the API docs", async () => {
    signedIn({
      [LIST]: jsonResponse(200, [
        makeApiKey(),
        makeApiKey({ id: "key-2", name: "Staging", lastUsed: "2025-03-02T12:00:00.000Z" }),
      ]),
    });
    renderApp("/dashboard/settings?tab=api");

    const rows = await screen.findAllByTestId("api-key-row");
    const first = within(rows[0] as HTMLElement);
    expect(first.getByText("Production API Key")).toBeInTheDocument();
    expect(first.getByTestId("api-key-masked")).toHaveTextContent("bk_live_••••••••a1b2");
    expect(first.getByText("Created Jan 15, 2025 · Last used Never")).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText(/Last used Mar 2, 2025/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "View API documentation" })).toHaveAttribute(
      "href",
      "/dashboard/api-docs",
    );
  });

  it("says so when there are no keys", async () => {
    signedIn({ [LIST]: jsonResponse(200, []) });
    renderApp("/dashboard/settings?tab=api");
    expect(await screen.findByText("No API keys yet. Create one to get started.")).toBeInTheDocument();
  });

  it("creates a key and shows it once, with Copy → 'Copied!' for 2 seconds", async () => {
    const writeText = stubClipboard();
    const fetchMock = signedIn({
      [LIST]: jsonResponse(200, []),
      "POST /api/api-keys": jsonResponse(201, {
        id: "key-9",
        key: FULL_KEY,
        message: "API key saved successfully",
      }),
    });
    renderApp("/dashboard/settings?tab=api");

    await userEvent.click(await screen.findByRole("button", { name: "Create Key" }));
    let dialog = within(await screen.findByRole("dialog"));
    expect(dialog.getByLabelText("Key Name")).toHaveAttribute("placeholder", "e.g. Production API Key");
    await userEvent.click(dialog.getByRole("button", { name: "Create" }));
    expect(await dialog.findByText("Key name is required")).toBeInTheDocument();
    expect(fetchCalls(fetchMock)).not.toContain("POST /api/api-keys");

    await userEvent.type(dialog.getByLabelText("Key Name"), "Production API Key");
    await userEvent.click(dialog.getByRole("button", { name: "Create" }));
    expect(await screen.findByText("API key saved successfully")).toBeInTheDocument();
    expect(dialog.getByTestId("created-api-key")).toHaveTextContent(FULL_KEY);
    const body = fetchMock.mock.calls[fetchCalls(fetchMock).indexOf("POST /api/api-keys")]?.[1]?.body;
    expect(JSON.parse(String(body))).toEqual({ name: "Production API Key" });
    await waitFor(() => expect(fetchCalls(fetchMock).filter((call) => call === LIST)).toHaveLength(2));

    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    fireEvent.click(dialog.getByRole("button", { name: "Copy API Key" }));
    await act(async () => {});
    expect(writeText).toHaveBeenCalledWith(FULL_KEY);
    expect(dialog.getByRole("button", { name: "Copied!" })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1999));
    expect(dialog.getByRole("button", { name: "Copied!" })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(dialog.getByRole("button", { name: "Copy API Key" })).toBeInTheDocument();
    vi.useRealTimers();

    await userEvent.click(dialog.getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.queryByText(FULL_KEY)).not.toBeInTheDocument();

    // Shown once: opening the dialog again starts a new key, never the last one.
    await userEvent.click(screen.getByRole("button", { name: "Create Key" }));
    dialog = within(await screen.findByRole("dialog"));
    expect(dialog.getByLabelText("Key Name")).toHaveValue("");
    expect(dialog.queryByTestId("created-api-key")).not.toBeInTheDocument();
  });

  it("shows creation failures in the dialog: the server's message, else the default", async () => {
    let status = 500;
    signedIn({
      [LIST]: jsonResponse(200, []),
      "POST /api/api-keys": () => jsonResponse(status, status === 400 ? { message: "Too many keys" } : {}),
    });
    renderApp("/dashboard/settings?tab=api");

    await userEvent.click(await screen.findByRole("button", { name: "Create Key" }));
    const dialog = within(await screen.findByRole("dialog"));
    await userEvent.type(dialog.getByLabelText("Key Name"), "CI");
    await userEvent.click(dialog.getByRole("button", { name: "Create" }));
    expect(await dialog.findByRole("alert")).toHaveTextContent("Failed to create API key");

    status = 400;
    await userEvent.click(dialog.getByRole("button", { name: "Create" }));
    expect(await dialog.findByText("Too many keys")).toBeInTheDocument();
  });

  it("revokes a key only after the confirmation, and shows a failure there", async () => {
    let revoke = jsonResponse(500, {});
    const fetchMock = signedIn({
      [LIST]: jsonResponse(200, [makeApiKey()]),
      "DELETE /api/api-keys/key-1": () => revoke,
    });
    renderApp("/dashboard/settings?tab=api");

    await userEvent.click(await screen.findByRole("button", { name: "Revoke" }));
    const confirm = within(await screen.findByRole("alertdialog"));
    expect(
      confirm.getByText("Are you sure you want to revoke this API key? This action cannot be undone."),
    ).toBeInTheDocument();
    await userEvent.click(confirm.getByRole("button", { name: "Revoke Key" }));
    expect(await confirm.findByRole("alert")).toHaveTextContent("Failed to revoke API key");

    revoke = new Response(null, { status: 204 });
    await userEvent.click(confirm.getByRole("button", { name: "Revoke Key" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(fetchCalls(fetchMock).filter((call) => call === "DELETE /api/api-keys/key-1")).toHaveLength(2);
    expect(fetchCalls(fetchMock).filter((call) => call === LIST)).toHaveLength(2);
  });

  it("retries a failed load once, then shows the server's message", async () => {
    const fetchMock = signedIn({ [LIST]: jsonResponse(500, { message: "Database unavailable" }) });
    renderApp("/dashboard/settings?tab=api");

    const alert = within(await screen.findByRole("alert", {}, { timeout: 5000 }));
    expect(alert.getByText("Database unavailable")).toBeInTheDocument();
    expect(fetchCalls(fetchMock).filter((call) => call === LIST)).toHaveLength(2);
  });

  it("tells members that only admins manage keys, without asking the server", async () => {
    const fetchMock = signedIn({}, "member");
    renderApp("/dashboard/settings?tab=api");

    expect(await screen.findByText("Only admins can manage API keys.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Create Key" })).not.toBeInTheDocument();
    expect(fetchCalls(fetchMock)).not.toContain(LIST);
  });
});
