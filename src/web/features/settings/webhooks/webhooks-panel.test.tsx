import type { WebhookDelivery, WebhookEndpoint } from "@shared/webhooks";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeUser, renderApp } from "@/testing/render-app";

const LIST = "GET /api/webhooks";
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3XqYvXnT1AE=";
const ROTATED = "whsec_Qm9yZSBzZWNyZXRzIG1ha2UgZm9yIGJldHRlciBzZWNyZXRzIQ==";

function makeEndpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: "wh-1",
    url: "https://hooks.acme.com/buddy",
    events: ["conversion.created", "relationship.created"],
    enabled: true,
    secret: "whsec_••••••••T1AE",
    disabledReason: null,
    failingSince: null,
    createdAt: "2026-03-01T12:00:00.000Z",
    ...overrides,
  };
}

function makeDelivery(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: "att-1",
    messageId: "msg_1",
    eventType: "webhook.test",
    attempt: 1,
    status: "succeeded",
    responseStatus: 200,
    durationMs: 42,
    response: "ok",
    request: '{"type":"webhook.test","timestamp":"2026-03-02T14:05:09.000Z","data":{"message":"hi"}}',
    createdAt: "2026-03-02T14:05:09.000Z",
    ...overrides,
  };
}

function signedIn(routes: Parameters<typeof stubFetch>[0], role: "admin" | "member" = "admin") {
  setToken("token");
  return stubFetch({
    "GET /api/me": jsonResponse(200, { user: makeUser({ role }) }),
    "GET /api/api-keys": jsonResponse(200, []),
    ...routes,
  });
}

function bodyOf(fetchMock: ReturnType<typeof stubFetch>, call: string): unknown {
  const init = fetchMock.mock.calls[fetchCalls(fetchMock).lastIndexOf(call)]?.[1];
  return JSON.parse(String(init?.body));
}

const DELIVERIES = "GET /api/webhooks/wh-1/deliveries";

const count = (fetchMock: ReturnType<typeof stubFetch>, call: string) =>
  fetchCalls(fetchMock).filter((made) => made === call).length;

function stubClipboard() {
  const writeText = vi.fn(async (_text: string) => {});
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
  return writeText;
}

describe("Settings → API Keys & Webhooks: webhooks", { timeout: 20_000 }, () => {
  it("lists each endpoint: URL, events, state (failing since, or Buddy's reason), masked secret", async () => {
    signedIn({
      [LIST]: jsonResponse(200, [
        makeEndpoint({ failingSince: "2026-03-02T08:00:00.000Z" }),
        makeEndpoint({
          id: "wh-2",
          url: "https://crm.acme.com/in",
          events: ["relationship.created"],
          enabled: false,
          disabledReason: "Disabled after failing for 5 days",
        }),
        makeEndpoint({ id: "wh-3", url: "https://paused.acme.com/", enabled: false }),
      ]),
    });
    renderApp("/dashboard/settings?tab=api");

    expect(
      await screen.findByRole("tab", { name: "API Keys & Webhooks", selected: true }),
    ).toBeInTheDocument();
    const [first, second, third] = (await screen.findAllByTestId("webhook-endpoint")).map((row) =>
      within(row),
    );
    if (!first || !second || !third) throw new Error("three rows expected");
    expect(first.getByTestId("webhook-url")).toHaveTextContent("https://hooks.acme.com/buddy");
    expect(first.getByText("conversion.created")).toBeInTheDocument();
    expect(first.getByText("relationship.created")).toBeInTheDocument();
    // Enabled, but its last attempt failed: amber, since when, in the viewer's time.
    expect(first.getByTestId("webhook-status")).toHaveTextContent(/^Failing since Mar 2, 2026/);
    expect(first.getByTestId("webhook-status")).toHaveAttribute("data-state", "failing");
    expect(first.getByTestId("webhook-failing-since")).toHaveAttribute(
      "datetime",
      "2026-03-02T08:00:00.000Z",
    );
    expect(first.getByTestId("webhook-failing-note")).toHaveTextContent("Buddy retries its messages");
    expect(first.getByRole("switch", { name: "Enabled" })).toBeChecked();
    expect(first.getByTestId("webhook-secret-masked")).toHaveTextContent("whsec_••••••••T1AE");

    expect(second.getByTestId("webhook-status")).toHaveTextContent("Disabled");
    expect(second.queryByTestId("webhook-failing-note")).not.toBeInTheDocument();
    expect(second.getByText(/Disabled after failing for 5 days/)).toBeInTheDocument();
    expect(second.queryByText("conversion.created")).not.toBeInTheDocument();
    expect(second.getByRole("switch", { name: "Enabled" })).not.toBeChecked();
    expect(third.getByTestId("webhook-status")).toHaveTextContent("Disabled");
    expect(third.queryByText(/failing for 5 days/)).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Events and signatures" })).toHaveAttribute(
      "href",
      "/dashboard/api-docs?tab=webhooks",
    );
  });

  it("says so when there are no endpoints", async () => {
    signedIn({ [LIST]: jsonResponse(200, []) });
    renderApp("/dashboard/settings?tab=api");
    expect(
      await screen.findByText("No webhook endpoints yet. Add one to send events to your own tools."),
    ).toBeInTheDocument();
  });

  it("adds an endpoint: the shared schema first, then the server's 400, then the secret once with Copy", async () => {
    const writeText = stubClipboard();
    let created = false;
    const fetchMock = signedIn({
      [LIST]: () => jsonResponse(200, created ? [makeEndpoint()] : []),
      "POST /api/webhooks": (init) => {
        const { url } = JSON.parse(String(init.body)) as { url: string };
        if (url.includes("127.0.0.1")) {
          return jsonResponse(400, { message: "Webhooks cannot be sent to a private or loopback address" });
        }
        created = true;
        return jsonResponse(201, { ...makeEndpoint(), secret: SECRET });
      },
    });
    renderApp("/dashboard/settings?tab=api");

    await userEvent.click(await screen.findByRole("button", { name: "Add endpoint" }));
    const dialog = within(await screen.findByRole("dialog"));
    expect(dialog.getByRole("checkbox", { name: "conversion.created" })).toBeChecked();
    expect(dialog.getByText("A conversion is recorded (sent or received)")).toBeInTheDocument();
    await userEvent.click(dialog.getByRole("checkbox", { name: "conversion.created" }));
    await userEvent.click(dialog.getByRole("checkbox", { name: "conversion.refunded" }));
    await userEvent.click(dialog.getByRole("checkbox", { name: "relationship.created" }));
    await userEvent.click(dialog.getByRole("checkbox", { name: "overlap.completed" }));
    await userEvent.click(dialog.getByRole("button", { name: "Add endpoint" }));
    expect(
      await dialog.findByText("Enter the endpoint's URL, starting with https:// or http://"),
    ).toBeInTheDocument();
    expect(dialog.getByText("Choose at least one event")).toBeInTheDocument();
    await userEvent.type(dialog.getByLabelText("Endpoint URL"), "ftp://hooks.acme.com");
    await userEvent.click(dialog.getByRole("button", { name: "Add endpoint" }));
    expect(
      await dialog.findByText("Enter the endpoint's URL, starting with https:// or http://"),
    ).toBeInTheDocument();
    expect(fetchCalls(fetchMock)).not.toContain("POST /api/webhooks");

    await userEvent.clear(dialog.getByLabelText("Endpoint URL"));
    await userEvent.type(dialog.getByLabelText("Endpoint URL"), "http://127.0.0.1/hook");
    await userEvent.click(dialog.getByRole("checkbox", { name: "relationship.created" }));
    await userEvent.click(dialog.getByRole("button", { name: "Add endpoint" }));
    expect(await dialog.findByRole("alert")).toHaveTextContent(
      "Webhooks cannot be sent to a private or loopback address",
    );
    expect(bodyOf(fetchMock, "POST /api/webhooks")).toEqual({
      url: "http://127.0.0.1/hook",
      events: ["relationship.created"],
    });

    await userEvent.clear(dialog.getByLabelText("Endpoint URL"));
    await userEvent.type(dialog.getByLabelText("Endpoint URL"), "https://hooks.acme.com/buddy");
    await userEvent.click(dialog.getByRole("button", { name: "Add endpoint" }));
    expect(await screen.findByText("Webhook endpoint added")).toBeInTheDocument();
    expect(dialog.getByTestId("webhook-secret")).toHaveTextContent(SECRET);
    expect(dialog.getByText(/it will not be shown again/)).toBeInTheDocument();
    await userEvent.click(dialog.getByRole("button", { name: "Copy" }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(dialog.getByRole("button", { name: "Copied!" })).toBeInTheDocument();

    await userEvent.click(dialog.getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(await screen.findByTestId("webhook-endpoint")).toBeInTheDocument();
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();
  });

  it("switches an endpoint off and on, sends a test event, says so, and shows its outcome once known", async () => {
    let enabled = true;
    let attempted = false;
    const fetchMock = signedIn({
      [LIST]: () =>
        jsonResponse(200, [
          makeEndpoint({ enabled, failingSince: attempted ? "2026-03-02T14:05:09.000Z" : null }),
        ]),
      "PATCH /api/webhooks/wh-1": (init) => {
        enabled = (JSON.parse(String(init.body)) as { enabled: boolean }).enabled;
        return jsonResponse(200, makeEndpoint({ enabled }));
      },
      "POST /api/webhooks/wh-1/test": jsonResponse(202, {
        message: "Test event queued",
        messageId: "msg_9",
        attempt: 1,
      }),
      // Not attempted at the first ask; then failed with 500, its retry waiting.
      [`${DELIVERIES}?messageId=msg_9`]: () => {
        if (!attempted) {
          attempted = true;
          return jsonResponse(200, [makeDelivery({ id: "job:1", messageId: "msg_9", status: "pending" })]);
        }
        return jsonResponse(200, [
          makeDelivery({ id: "job:2", messageId: "msg_9", attempt: 2, status: "pending", request: null }),
          makeDelivery({ id: "att-9", messageId: "msg_9", status: "failed", responseStatus: 500 }),
        ]);
      },
    });
    renderApp("/dashboard/settings?tab=api");

    const row = within(await screen.findByTestId("webhook-endpoint"));
    await userEvent.click(row.getByRole("switch", { name: "Enabled" }));
    expect(await screen.findByText("Webhook endpoint disabled")).toBeInTheDocument();
    expect(bodyOf(fetchMock, "PATCH /api/webhooks/wh-1")).toEqual({ enabled: false });
    await waitFor(() => expect(row.getByTestId("webhook-status")).toHaveTextContent("Disabled"));
    await userEvent.click(row.getByRole("switch", { name: "Enabled" }));
    expect(await screen.findByText("Webhook endpoint enabled")).toBeInTheDocument();
    await waitFor(() => expect(row.getByTestId("webhook-status")).toHaveTextContent("Enabled"));

    await userEvent.click(row.getByRole("button", { name: "Send test event" }));
    expect(await screen.findByText("Test event queued")).toBeInTheDocument();
    expect(count(fetchMock, "POST /api/webhooks/wh-1/test")).toBe(1);
    expect(await row.findByTestId("webhook-message-outcome")).toHaveTextContent(
      "Test event sent, waiting for the endpoint's answer…",
    );
    await waitFor(
      () =>
        expect(row.getByTestId("webhook-message-outcome")).toHaveTextContent(
          "Test event failed: HTTP 500. Buddy retries it.",
        ),
      { timeout: 5000 },
    );
    // Known: the list is asked again, and shows the endpoint failing; the asking stops.
    await waitFor(() => expect(row.getByTestId("webhook-status")).toHaveTextContent(/^Failing since/));
    const asked = count(fetchMock, `${DELIVERIES}?messageId=msg_9`);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(count(fetchMock, `${DELIVERIES}?messageId=msg_9`)).toBe(asked);
  });

  it("rotates the secret after a confirmation and shows the new one once, the old one working 24 hours", async () => {
    const writeText = stubClipboard();
    let rotate = jsonResponse(500, {});
    const fetchMock = signedIn({
      [LIST]: jsonResponse(200, [makeEndpoint()]),
      "POST /api/webhooks/wh-1/rotate-secret": () => rotate,
    });
    renderApp("/dashboard/settings?tab=api");

    await userEvent.click(await screen.findByRole("button", { name: "Rotate secret" }));
    const confirm = within(await screen.findByRole("alertdialog"));
    expect(confirm.getByText(/keeps working for 24 hours/)).toBeInTheDocument();
    await userEvent.click(confirm.getByRole("button", { name: "Rotate secret" }));
    expect(await confirm.findByRole("alert")).toHaveTextContent("Failed to rotate the secret");

    rotate = jsonResponse(200, { secret: ROTATED });
    await userEvent.click(confirm.getByRole("button", { name: "Rotate secret" }));
    const shown = within(await screen.findByRole("dialog"));
    expect(shown.getByTestId("webhook-secret")).toHaveTextContent(ROTATED);
    expect(shown.getByText(/The old secret keeps working for 24 hours/)).toBeInTheDocument();
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    await userEvent.click(shown.getByRole("button", { name: "Copy" }));
    expect(writeText).toHaveBeenCalledWith(ROTATED);
    await userEvent.click(shown.getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.queryByText(ROTATED)).not.toBeInTheDocument();
    expect(count(fetchMock, LIST)).toBe(2);
  });

  it("deletes an endpoint only after the confirmation", async () => {
    let deleted = false;
    const fetchMock = signedIn({
      [LIST]: () => jsonResponse(200, deleted ? [] : [makeEndpoint()]),
      "DELETE /api/webhooks/wh-1": () => {
        deleted = true;
        return new Response(null, { status: 204 });
      },
    });
    renderApp("/dashboard/settings?tab=api");

    await userEvent.click(await screen.findByRole("button", { name: "Delete" }));
    const confirm = within(await screen.findByRole("alertdialog"));
    expect(confirm.getByText("https://hooks.acme.com/buddy")).toBeInTheDocument();
    await userEvent.click(confirm.getByRole("button", { name: "Cancel" }));
    expect(fetchCalls(fetchMock)).not.toContain("DELETE /api/webhooks/wh-1");

    await userEvent.click(screen.getByRole("button", { name: "Delete" }));
    await userEvent.click(
      within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Delete endpoint" }),
    );
    expect(await screen.findByText("Webhook endpoint deleted")).toBeInTheDocument();
    expect(
      await screen.findByText("No webhook endpoints yet. Add one to send events to your own tools."),
    ).toBeInTheDocument();
  });

  it("stops asking a test event's outcome once its endpoint is being deleted: a deleted endpoint answers 404", async () => {
    let deleted = false;
    let askedBeforeDelete = -1;
    const outcome = `${DELIVERIES}?messageId=msg_9`;
    const fetchMock = signedIn({
      [LIST]: () => jsonResponse(200, deleted ? [] : [makeEndpoint()]),
      "POST /api/webhooks/wh-1/test": jsonResponse(202, {
        message: "Test event queued",
        messageId: "msg_9",
        attempt: 1,
      }),
      // Never attempted: the outcome is asked every second until the endpoint goes.
      [outcome]: () =>
        deleted
          ? jsonResponse(404, { message: "Webhook endpoint not found" })
          : jsonResponse(200, [makeDelivery({ id: "job:1", messageId: "msg_9", status: "pending" })]),
      "DELETE /api/webhooks/wh-1": async () => {
        askedBeforeDelete = count(fetchMock, outcome);
        // The answer takes longer than a poll's interval: no poll may go out meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 1200));
        deleted = true;
        return new Response(null, { status: 204 });
      },
    });
    renderApp("/dashboard/settings?tab=api");

    const row = within(await screen.findByTestId("webhook-endpoint"));
    await userEvent.click(row.getByRole("button", { name: "Send test event" }));
    expect(await row.findByTestId("webhook-message-outcome")).toHaveTextContent(
      "Test event sent, waiting for the endpoint's answer…",
    );
    await waitFor(() => expect(count(fetchMock, outcome)).toBeGreaterThanOrEqual(2), { timeout: 3000 });
    await userEvent.click(row.getByRole("button", { name: "Delete" }));
    await userEvent.click(
      within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Delete endpoint" }),
    );
    expect(await screen.findByText("Webhook endpoint deleted")).toBeInTheDocument();
    expect(
      screen.getByText("No webhook endpoints yet. Add one to send events to your own tools."),
    ).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(count(fetchMock, outcome)).toBe(askedBeforeDelete);
  });

  it("opens the deliveries drawer: status, response code, attempt, event, duration, time, response; Refresh asks again", async () => {
    const longResponse = `<html>${"x".repeat(900)}</html>`;
    const fetchMock = signedIn({
      [LIST]: jsonResponse(200, [makeEndpoint()]),
      [DELIVERIES]: jsonResponse(200, [
        makeDelivery({
          id: "job-2:2",
          messageId: "msg_2",
          eventType: "conversion.created",
          attempt: 2,
          status: "pending",
          responseStatus: null,
          durationMs: null,
          response: null,
          createdAt: "2026-03-02T14:10:00.000Z",
        }),
        makeDelivery({
          id: "att-2",
          messageId: "msg_2",
          eventType: "conversion.created",
          status: "failed",
          responseStatus: 502,
          durationMs: 1234,
          response: longResponse,
        }),
        makeDelivery(),
      ]),
    });
    renderApp("/dashboard/settings?tab=api");

    await userEvent.click(await screen.findByRole("button", { name: "Deliveries" }));
    const drawer = within(await screen.findByRole("dialog"));
    expect(drawer.getByText("https://hooks.acme.com/buddy")).toBeInTheDocument();
    const [pending, failed, succeeded] = (await drawer.findAllByTestId("webhook-delivery")).map((item) =>
      within(item),
    );
    if (!pending || !failed || !succeeded) throw new Error("three deliveries expected");
    expect(pending.getByTestId("delivery-status")).toHaveTextContent("pending");
    expect(pending.getByText("Attempt 2")).toBeInTheDocument();
    expect(pending.getByTestId("delivery-response-status")).toHaveTextContent("Not sent yet");
    expect(failed.getByTestId("delivery-status")).toHaveTextContent("failed");
    expect(failed.getByText("conversion.created")).toBeInTheDocument();
    expect(failed.getByTestId("delivery-response-status")).toHaveTextContent("HTTP 502");
    expect(failed.getByText("1234 ms")).toBeInTheDocument();
    expect(failed.getByTestId("delivery-response")).toHaveClass("line-clamp-2");
    expect(failed.getByTestId("delivery-response")).toHaveAttribute("title", longResponse);
    expect(succeeded.getByTestId("delivery-status")).toHaveTextContent("succeeded");
    expect(succeeded.getByText("webhook.test")).toBeInTheDocument();
    expect(succeeded.getByTestId("delivery-response-status")).toHaveTextContent("HTTP 200");
    expect(succeeded.getByText("Attempt 1")).toBeInTheDocument();
    expect(succeeded.getByText("42 ms")).toBeInTheDocument();
    expect(succeeded.getByText(/Mar 2, 2026/)).toBeInTheDocument();

    expect(count(fetchMock, DELIVERIES)).toBe(1);
    await userEvent.click(drawer.getByRole("button", { name: "Refresh" }));
    await waitFor(() => expect(count(fetchMock, DELIVERIES)).toBe(2));
  });

  it("shows each attempt's payload and whole response, and resends one: its outcome once known", async () => {
    const writeText = stubClipboard();
    const body =
      '{"type":"conversion.created","timestamp":"2026-03-02T14:05:09.000Z","data":{"conversionId":"c-1"}}';
    const failedAttempt = makeDelivery({
      id: "att-2",
      messageId: "msg_2",
      eventType: "conversion.created",
      status: "failed",
      responseStatus: 500,
      response: "database is down",
      request: body,
    });
    const resentAttempt = { ...failedAttempt, id: "att-3", attempt: 2, status: "succeeded" as const };
    let resent = false;
    const fetchMock = signedIn({
      [LIST]: jsonResponse(200, [makeEndpoint({ failingSince: "2026-03-02T14:05:09.000Z" })]),
      [DELIVERIES]: () =>
        jsonResponse(200, [
          ...(resent ? [{ ...resentAttempt, responseStatus: 200, response: "ok" }] : []),
          failedAttempt,
          makeDelivery({ id: "att-old", messageId: "msg_0", request: null }),
        ]),
      "POST /api/webhooks/wh-1/deliveries/att-2/resend": () => {
        resent = true;
        return jsonResponse(202, {
          message: "Message queued to be sent again",
          messageId: "msg_2",
          attempt: 2,
        });
      },
      [`${DELIVERIES}?messageId=msg_2`]: () =>
        jsonResponse(200, [{ ...resentAttempt, responseStatus: 200, response: "ok" }, failedAttempt]),
    });
    renderApp("/dashboard/settings?tab=api");

    await userEvent.click(await screen.findByRole("button", { name: "Deliveries" }));
    const drawer = within(await screen.findByRole("dialog"));
    const [failed, old] = (await drawer.findAllByTestId("webhook-delivery")).map((item) => within(item));
    if (!failed || !old) throw new Error("two deliveries expected");

    // The payload, folded until asked for: indented to read, copied as signed.
    const payload = failed.getByTestId("delivery-payload");
    expect(within(payload).getByText(/"conversionId": "c-1"/)).not.toBeVisible();
    await userEvent.click(within(payload).getByText("Payload"));
    expect(within(payload).getByText(/"conversionId": "c-1"/)).toBeVisible();
    await userEvent.click(within(payload).getByRole("button", { name: "Copy payload" }));
    expect(writeText).toHaveBeenCalledWith(body);
    const response = failed.getByTestId("delivery-response-full");
    await userEvent.click(within(response).getByText("Response"));
    expect(within(response).getByText("database is down", { selector: "pre" })).toBeVisible();

    // An attempt from before bodies were kept has neither payload nor Resend.
    expect(old.queryByTestId("delivery-payload")).not.toBeInTheDocument();
    expect(old.queryByRole("button", { name: /Resend/ })).not.toBeInTheDocument();

    await userEvent.click(failed.getByRole("button", { name: "Resend conversion.created, attempt 1" }));
    expect(await screen.findByText("Message queued to be sent again")).toBeInTheDocument();
    expect(count(fetchMock, "POST /api/webhooks/wh-1/deliveries/att-2/resend")).toBe(1);
    await waitFor(
      () =>
        expect(drawer.getByTestId("webhook-message-outcome")).toHaveTextContent(
          "Resent message delivered: HTTP 200 in 42 ms",
        ),
      { timeout: 5000 },
    );
    // The drawer shows the new attempt.
    await waitFor(() => expect(drawer.getAllByTestId("webhook-delivery")).toHaveLength(3));
    expect(
      within(drawer.getAllByTestId("webhook-delivery")[0] as HTMLElement).getByText("Attempt 2"),
    ).toBeInTheDocument();
  });

  it("offers no Resend to a disabled endpoint, and says why", async () => {
    signedIn({
      [LIST]: jsonResponse(200, [makeEndpoint({ enabled: false })]),
      [DELIVERIES]: jsonResponse(200, [makeDelivery()]),
    });
    renderApp("/dashboard/settings?tab=api");
    await userEvent.click(await screen.findByRole("button", { name: "Deliveries" }));
    const drawer = within(await screen.findByRole("dialog"));
    expect(await drawer.findByRole("button", { name: /^Resend/ })).toBeDisabled();
    expect(drawer.getByTestId("resend-disabled-note")).toHaveTextContent(
      "Enable the endpoint to resend its messages.",
    );
  });

  it("tells members that only admins manage webhooks, without asking the server", async () => {
    const fetchMock = signedIn({}, "member");
    renderApp("/dashboard/settings?tab=api");

    expect(await screen.findByText("Only admins can manage webhooks.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Add endpoint" })).not.toBeInTheDocument();
    expect(fetchCalls(fetchMock)).not.toContain(LIST);
  });
});
