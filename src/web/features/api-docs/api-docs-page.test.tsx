import { CLICK_REASONS } from "@shared/click-reasons";
import { CLICK_EXPORT_COLUMNS, CONVERSION_EXPORT_COLUMNS } from "@shared/exports";
import { WEBHOOK_MESSAGE_SCHEMAS } from "@shared/webhooks";
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
      "Webhooks & Exports",
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
    expect(note).toHaveTextContent(
      "the pixel records leads only: a call that carries value, currency, eventId or customerId is refused",
    );
    expect(note).toHaveTextContent("(POST /api/marketing/conversion) or connect Stripe");
    expect(within(note).getByRole("link", { name: "Settings → API keys" })).toHaveAttribute(
      "href",
      "/dashboard/settings?tab=api",
    );
  });

  it("documents the webhook events with CONTRACT §9 payloads, the signature headers, retries and the CSV exports", async () => {
    signedIn(jsonResponse(200, makeOpenApiDocument()));
    renderApp("/dashboard/api-docs?tab=webhooks");

    expect(
      await screen.findByRole("tab", { name: "Webhooks & Exports", selected: true }, FIRST_LOAD),
    ).toBeInTheDocument();
    const examples: Record<string, { data: Record<string, unknown> }> = Object.fromEntries(
      screen
        .getAllByTestId("webhook-event")
        .map((card) => [
          card.getAttribute("data-event"),
          JSON.parse(within(card).getByTestId("webhook-example").textContent ?? ""),
        ]),
    );
    expect(Object.keys(examples)).toEqual([
      "conversion.created",
      "conversion.refunded",
      "relationship.created",
      "overlap.completed",
      "webhook.test",
    ]);
    for (const [type, example] of Object.entries(examples)) {
      expect(Object.keys(example)).toEqual(["type", "timestamp", "data"]);
      expect(example).toMatchObject({ type });
    }
    // Examples and fields in the order the schemas give (and the server sends).
    for (const [type, schema] of Object.entries(WEBHOOK_MESSAGE_SCHEMAS)) {
      expect(schema.parse(examples[type])).toEqual(examples[type]);
      expect(Object.keys(examples[type]?.data ?? {})).toEqual(Object.keys(schema.shape.data.shape));
      const card = screen.getAllByTestId("webhook-event").find((c) => c.getAttribute("data-event") === type);
      const fields = within(card as HTMLElement)
        .getAllByRole("row")
        .slice(1)
        .map((row) => row.querySelector("code")?.textContent);
      expect(fields).toEqual(Object.keys(schema.shape.data.shape));
    }
    expect(screen.getAllByText("What the customer did.")).toHaveLength(1);
    expect(examples["conversion.created"]?.data).toMatchObject({
      direction: "received",
      value: 49.99,
      currency: "USD",
      partner: { id: expect.any(String), name: expect.any(String) },
    });
    expect(examples["relationship.created"]?.data).toMatchObject({
      type: "complement",
      partner: { id: expect.any(String), name: expect.any(String), website: expect.any(String) },
    });

    const headers = screen.getByTestId("webhook-headers");
    for (const header of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
      expect(within(headers).getByText(header)).toBeInTheDocument();
    }
    expect(headers).toHaveTextContent("v1,<base64>");
    expect(headers).toHaveTextContent("space-separated");
    expect(screen.getByTestId("webhook-verify-example")).toHaveTextContent(
      "new Webhook(process.env.BUDDY_WEBHOOK_SECRET)",
    );
    expect(screen.getByTestId("webhook-verify-example")).toHaveTextContent(
      "webhook.verify(rawBody, request.headers)",
    );
    expect(screen.getByTestId("webhook-retries")).toHaveTextContent(
      "retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h",
    );
    expect(screen.getByTestId("webhook-retries")).toHaveTextContent("fail for 5 days in a row is disabled");

    const exportsGuide = within(screen.getByTestId("exports-guide"));
    const columnsOf = (testId: string) =>
      within(exportsGuide.getByTestId(testId))
        .getAllByRole("row")
        .slice(1)
        .map((row) => row.querySelector("code")?.textContent);
    expect(columnsOf("export-columns-conversions")).toEqual([...CONVERSION_EXPORT_COLUMNS]);
    expect(columnsOf("export-columns-clicks")).toEqual([...CLICK_EXPORT_COLUMNS]);
    // CONTRACT §5: every reason a stored click is kept with, explained.
    expect(columnsOf("click-reasons").sort()).toEqual([...CLICK_REASONS].sort());
    expect(exportsGuide.getByText(/at most 366 days/)).toBeInTheDocument();
    expect(exportsGuide.getByText(/is prefixed with/)).toBeInTheDocument();
    expect(exportsGuide.getAllByTestId("curl-example")[0]).toHaveTextContent(
      "curl -H 'x-api-key: YOUR_KEY' -o conversions.csv 'https://buddy.example/api/exports/conversions.csv?from=2026-01-01&to=2026-01-31'",
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
