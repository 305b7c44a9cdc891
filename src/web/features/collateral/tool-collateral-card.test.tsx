import { renderAdHtml } from "@shared/snippets";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { buildAd } from "@/features/collateral/snippet-copy";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeCollateral, makeRelationship } from "@/testing/fixtures";
import { makeUser, renderApp } from "@/testing/render-app";

const LIST = "GET /api/marketing/collateral?organizationId=org-2";
const GENERATE = "POST /api/marketing/generate?organizationId=org-2&autoSave=true";
const SHORTEN = "POST /api/short-url";
const TRACKED = "http://localhost:3000/api/marketing/redirect?relationshipId=t1&collateralId=a&sig=x";
const SHORT = "http://localhost:3000/s/Ab3dE9";
const COMPANY = {
  name: "Mailfast",
  website: "https://mailfast.io",
  description: "Transactional email for developers.",
  domain: "mailfast.io",
};

/** jsdom has no clipboard: a plain-text one (the HTML copy falls back to writeText without ClipboardItem). */
function stubClipboard(refuse = false) {
  const writeText = vi.fn(async (_text: string) => {
    if (refuse) throw new DOMException("Write permission denied.", "NotAllowedError");
  });
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
  return writeText;
}

function signedIn(routes: Parameters<typeof stubFetch>[0]) {
  setToken("token");
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser() }),
    "GET /api/relationships/t1": jsonResponse(200, makeRelationship({ id: "t1" })),
    ...routes,
  });
}

describe("tool detail → Marketing Collateral", () => {
  it("lists only the Buddy's active collateral, each with its preview", async () => {
    signedIn({
      [LIST]: jsonResponse(200, [
        makeCollateral({ id: "a", name: "Mailfast for teams", organizationId: "org-2" }),
        makeCollateral({ id: "d", name: "Unfinished draft", status: "draft", organizationId: "org-2" }),
      ]),
    });
    renderApp("/dashboard/tools/t1");

    const card = within(await screen.findByTestId("tool-collateral"));
    const items = await card.findAllByTestId("tool-collateral-item");
    expect(items).toHaveLength(1);
    expect(
      within(items[0] as HTMLElement).getByRole("heading", { name: "Mailfast for teams" }),
    ).toBeInTheDocument();
    expect(card.queryByText("Unfinished draft")).not.toBeInTheDocument();
    expect(card.queryByRole("button", { name: "Generate" })).not.toBeInTheDocument();
  });

  it("offers Generate when there is none, then shows what was generated", async () => {
    let list = [makeCollateral({ id: "d", status: "draft", organizationId: "org-2" })];
    const fetchMock = signedIn({
      [LIST]: () => jsonResponse(200, list),
      [GENERATE]: () => {
        list = [makeCollateral({ id: "g", name: "Generated ad", organizationId: "org-2" })];
        return jsonResponse(201, list[0]);
      },
    });
    renderApp("/dashboard/tools/t1");

    const card = within(await screen.findByTestId("tool-collateral"));
    expect(
      await card.findByText("No marketing collateral available. Generate some to get started."),
    ).toBeInTheDocument();
    await userEvent.click(card.getByRole("button", { name: "Generate" }));

    expect(await card.findByRole("heading", { name: "Generated ad" })).toBeInTheDocument();
    expect(card.queryByRole("button", { name: "Generate" })).not.toBeInTheDocument();
    expect(fetchCalls(fetchMock).filter((call) => call === GENERATE)).toHaveLength(1);
  });

  it("says 'Failed to generate collateral' when generation fails", async () => {
    signedIn({ [LIST]: jsonResponse(200, []), [GENERATE]: jsonResponse(500, {}) });
    renderApp("/dashboard/tools/t1");

    const card = within(await screen.findByTestId("tool-collateral"));
    await userEvent.click(await card.findByRole("button", { name: "Generate" }));
    expect(await screen.findByText("Failed to generate collateral")).toBeInTheDocument();
    await waitFor(() => expect(card.getByRole("button", { name: "Generate" })).toBeEnabled());
  });

  it("shares an item: template, live preview and Copy HTML with the tracked short link", async () => {
    const writeText = stubClipboard();
    const item = makeCollateral({
      id: "a",
      name: "Mailfast for teams",
      organizationId: "org-2",
      trackedUrl: TRACKED,
    });
    const fetchMock = signedIn({
      [LIST]: jsonResponse(200, [item]),
      [SHORTEN]: jsonResponse(201, { shortUrl: SHORT }),
    });
    renderApp("/dashboard/tools/t1");

    const entry = within(await screen.findByTestId("tool-collateral-item"));
    // The preview links where the copy will: the short tracked link, and says so.
    const preview = await entry.findByTitle("HTML preview: Mailfast for teams");
    expect(preview).toHaveAttribute("sandbox", "allow-same-origin");
    expect(preview.getAttribute("srcdoc")).toContain(renderAdHtml(buildAd(item, COMPANY, SHORT), "simple"));
    expect(entry.getByTestId("collateral-cta-url")).toHaveTextContent("localhost:3000/s/Ab3dE9");
    expect(entry.getByTestId("collateral-cta-url")).toHaveAttribute("title", SHORT);
    expect(entry.getByRole("combobox", { name: "HTML template" })).toHaveTextContent("Simple");

    await userEvent.click(entry.getByRole("combobox", { name: "HTML template" }));
    await userEvent.click(await screen.findByRole("option", { name: "Card" }));
    expect(preview.getAttribute("srcdoc")).toContain(renderAdHtml(buildAd(item, COMPANY, SHORT), "card"));

    await userEvent.click(entry.getByRole("button", { name: "Copy HTML" }));
    expect(await screen.findByText("HTML copied to clipboard")).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(renderAdHtml(buildAd(item, COMPANY, SHORT), "card"));
    const body = fetchMock.mock.calls[fetchCalls(fetchMock).indexOf(SHORTEN)]?.[1]?.body;
    expect(JSON.parse(String(body))).toEqual({ longUrl: TRACKED });
    // Asked once, for the preview; the copy reused it.
    expect(fetchCalls(fetchMock).filter((call) => call === SHORTEN)).toHaveLength(1);
  });

  it("Copy link copies the short tracked link alone: 'Link copied to clipboard'", async () => {
    const writeText = stubClipboard();
    const fetchMock = signedIn({
      [LIST]: jsonResponse(200, [makeCollateral({ id: "a", organizationId: "org-2", trackedUrl: TRACKED })]),
      [SHORTEN]: jsonResponse(201, { shortUrl: SHORT }),
    });
    renderApp("/dashboard/tools/t1");

    const entry = within(await screen.findByTestId("tool-collateral-item"));
    const button = await entry.findByRole("button", { name: "Copy link" });
    await userEvent.click(button);
    expect(await screen.findByText("Link copied to clipboard")).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(SHORT);
    await waitFor(() => expect(button).toHaveAttribute("data-copied", "true"));
    // The same short link the snippets carry, asked for once.
    expect(fetchCalls(fetchMock).filter((call) => call === SHORTEN)).toHaveLength(1);
  });

  it("Copy link says 'Failed to copy link' when the clipboard refuses", async () => {
    stubClipboard(true);
    vi.spyOn(console, "error").mockImplementation(() => {});
    signedIn({
      [LIST]: jsonResponse(200, [makeCollateral({ id: "a", organizationId: "org-2", trackedUrl: TRACKED })]),
      [SHORTEN]: jsonResponse(201, { shortUrl: SHORT }),
    });
    renderApp("/dashboard/tools/t1");

    const entry = within(await screen.findByTestId("tool-collateral-item"));
    await userEvent.click(await entry.findByRole("button", { name: "Copy link" }));
    expect(await screen.findByText("Failed to copy link")).toBeInTheDocument();
  });

  it("without a short link, Copy link stops with 'Failed to create short URL' and the preview shows the full tracked link", async () => {
    const writeText = stubClipboard();
    const fetchMock = signedIn({
      [LIST]: jsonResponse(200, [makeCollateral({ id: "a", organizationId: "org-2", trackedUrl: TRACKED })]),
      [SHORTEN]: jsonResponse(500, { message: "Internal Server Error" }),
    });
    renderApp("/dashboard/tools/t1");

    const entry = within(await screen.findByTestId("tool-collateral-item"));
    expect(await entry.findByTestId("collateral-cta-url")).toHaveAttribute("title", TRACKED);
    await userEvent.click(entry.getByRole("button", { name: "Copy link" }));
    expect(await screen.findByText("Failed to create short URL")).toBeInTheDocument();
    expect(writeText).not.toHaveBeenCalled();
    // A failure is not kept: the copy asked again.
    expect(fetchCalls(fetchMock).filter((call) => call === SHORTEN)).toHaveLength(2);
  });

  it("Copy Text stops with 'Failed to create short URL' and copies nothing", async () => {
    const writeText = stubClipboard();
    signedIn({
      [LIST]: jsonResponse(200, [makeCollateral({ id: "a", organizationId: "org-2", trackedUrl: TRACKED })]),
      [SHORTEN]: jsonResponse(400, { error: "longUrl must be a tracked link of this platform" }),
    });
    renderApp("/dashboard/tools/t1");

    const entry = within(await screen.findByTestId("tool-collateral-item"));
    await userEvent.click(entry.getByRole("button", { name: "Copy Text" }));
    expect(await screen.findByText("Failed to create short URL")).toBeInTheDocument();
    expect(writeText).not.toHaveBeenCalled();
    await waitFor(() => expect(entry.getByRole("button", { name: "Copy Text" })).toBeEnabled());
  });

  it("Copy JSON says 'Failed to copy JSON' when the clipboard refuses", async () => {
    stubClipboard(true);
    vi.spyOn(console, "error").mockImplementation(() => {});
    signedIn({
      [LIST]: jsonResponse(200, [makeCollateral({ id: "a", organizationId: "org-2", trackedUrl: TRACKED })]),
      [SHORTEN]: jsonResponse(201, { shortUrl: SHORT }),
    });
    renderApp("/dashboard/tools/t1");

    const entry = within(await screen.findByTestId("tool-collateral-item"));
    await userEvent.click(entry.getByRole("button", { name: "Copy JSON" }));
    expect(await screen.findByText("Failed to copy JSON")).toBeInTheDocument();
  });
});
