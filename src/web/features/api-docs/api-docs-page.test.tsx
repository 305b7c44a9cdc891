import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { setToken } from "@/lib/session";
import { jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeUser, renderApp } from "@/testing/render-app";
import { makeOpenApiDocument } from "./openapi-fixture";

function signedIn(openapi: Response) {
  setToken("token");
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser() }),
    "GET /api/openapi.json": openapi,
  });
}

/** The lazy route, the session and the document load first; a busy machine needs more than 1 s. */
const FIRST_LOAD = { timeout: 5000 };

function operationCard(id: string): HTMLElement {
  const card = screen
    .getAllByTestId("api-operation")
    .find((element) => element.getAttribute("data-operation") === id);
  if (!card) throw new Error(`no card for ${id}`);
  return card;
}

// The whole app renders per test (lazy route included); a busy machine can pass the 5 s default.
describe("API Documentation page", { timeout: 15_000 }, () => {
  it("shows the document's tags as tabs and each operation's key requirement from its security", async () => {
    signedIn(jsonResponse(200, makeOpenApiDocument()));
    renderApp("/dashboard/api-docs");

    expect(await screen.findByRole("heading", { name: "API Documentation" }, FIRST_LOAD)).toBeInTheDocument();
    expect((await screen.findAllByRole("tab", {}, FIRST_LOAD)).map((tab) => tab.textContent)).toEqual([
      "Ads API",
      "Conversion Tracking",
    ]);

    const ads = operationCard("GET /api/ads");
    expect(within(ads).getByTestId("operation-url")).toHaveTextContent("https://buddy.example/api/ads");
    expect(within(ads).getByTestId("key-badge")).toHaveTextContent("Requires API key");
    expect(within(ads).getByTestId("curl-example")).toHaveTextContent(
      "curl -H 'x-api-key: YOUR_KEY' 'https://buddy.example/api/ads?format=json&limit=1'",
    );
    const limitRow = within(within(ads).getByTestId("parameters-table")).getByText("limit").closest("tr");
    expect(limitRow).toHaveTextContent("queryNointeger11–5");
    expect(within(ads).getByRole("list", { name: "Allowed values" })).toHaveTextContent("jsonhtmltext");
    expect(within(ads).getByTestId("responses-list")).toHaveTextContent(
      "401UnauthorizedMissing or invalid key",
    );

    await userEvent.click(screen.getByRole("tab", { name: "Conversion Tracking" }));
    const badges = Object.fromEntries(
      [
        "POST /api/marketing/conversion",
        "GET /api/marketing/conversion/{clickId}",
        "GET /api/tracking/click.js",
      ].map((id) => [id, within(operationCard(id)).getByTestId("key-badge").textContent]),
    );
    expect(badges).toEqual({
      "POST /api/marketing/conversion": "Requires API key",
      "GET /api/marketing/conversion/{clickId}": "No key needed",
      "GET /api/tracking/click.js": "No key needed",
    });
    const body = within(operationCard("POST /api/marketing/conversion")).getByTestId("request-body-table");
    expect(within(body).getByText("clickId").closest("tr")).toHaveTextContent(
      "clickIdYesstring—1–64 characters",
    );
    expect(within(body).getByText("signup")).toBeInTheDocument();
  });

  it("explains once, from the document, which calls need the x-api-key header and links to the keys", async () => {
    signedIn(jsonResponse(200, makeOpenApiDocument()));
    renderApp("/dashboard/api-docs");

    const note = await screen.findByTestId("api-key-note", {}, FIRST_LOAD);
    const [keyed, keyless] = within(note).getAllByRole("list");
    expect(
      within(keyed as HTMLElement)
        .getAllByRole("listitem")
        .map((item) => item.querySelector("code")?.textContent),
    ).toEqual(["GET /api/ads", "POST /api/marketing/conversion"]);
    expect(
      within(keyless as HTMLElement)
        .getAllByRole("listitem")
        .map((item) => item.querySelector("code")?.textContent),
    ).toEqual(["GET /api/marketing/conversion/{clickId}", "GET /api/tracking/click.js"]);
    expect(note).toHaveTextContent("x-api-key header");
    expect(note).toHaveTextContent("Never put an API key in a web page");
    expect(within(note).getByRole("link", { name: "Settings → API keys" })).toHaveAttribute(
      "href",
      "/dashboard/settings?tab=api",
    );
  });

  it("says so when the document cannot load", async () => {
    signedIn(jsonResponse(500, { message: "Internal Server Error" }));
    renderApp("/dashboard/api-docs");
    const alert = await screen.findByRole("alert", {}, FIRST_LOAD);
    expect(within(alert).getByText("Failed to fetch API documentation")).toBeInTheDocument();
    expect(within(alert).getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});
