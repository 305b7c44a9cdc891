import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader, createApiKey, createTestApp, signUpVerified, type TestApp } from "../testing/app";
import { createBuddies } from "../testing/buddies";

// Issue 15: one rule for text (src/shared/text.ts) in every body, path and query, and in jsonb.
let t: TestApp;
let buddies: Awaited<ReturnType<typeof createBuddies>>;
/** The organization's own domain, where its ads may point. */
let host: string;
let newcomer: Record<string, string>;
let apiKey: string;

const ad = (url: string) => ({
  name: "Try it",
  description: "The best tool.",
  ctaText: "Start",
  ctaUrl: url,
});

beforeAll(async () => {
  t = await createTestApp();
  buddies = await createBuddies(t, ["textco", "textpartner"]);
  host = (await t.app.inject({ url: "/api/organization", headers: buddies.org.headers })).json().domain;
  const { token } = await signUpVerified(t, `newcomer-${crypto.randomUUID().slice(0, 6)}@example.com`);
  newcomer = authHeader(token);
  apiKey = (await createApiKey(t, buddies.org)).key;
});
afterAll(() => t.close());

describe("one boundary for text", () => {
  const cases: [
    string,
    () => {
      method: "GET" | "POST" | "PATCH";
      url: string;
      headers: Record<string, string>;
      payload?: object;
    },
    string,
  ][] = [
    [
      "a NUL in a company name",
      () => ({
        method: "POST",
        url: "/api/onboarding",
        headers: newcomer,
        payload: {
          companyName: "Acme\u0000",
          website: "acme-text.example",
          description: "Acme makes software for testing.",
          transactionalEmailProvider: "postmark",
          marketingEmailProvider: "mailchimp",
        },
      }),
      "Company name contains characters that are not allowed",
    ],
    [
      "a line break inside an organization name",
      () => ({
        method: "PATCH",
        url: "/api/organization",
        headers: buddies.org.headers,
        payload: { name: "Text\nCo", website: host },
      }),
      "Organization name contains characters that are not allowed",
    ],
    [
      "a bell in notes (tab and line breaks are fine)",
      () => ({
        method: "PATCH",
        url: `/api/relationships/${buddies.relationships.toOrg.id}`,
        headers: buddies.partner.headers,
        payload: { notes: "line one\n\tline two \u0007" },
      }),
      "Notes contains characters that are not allowed",
    ],
    [
      "a lone surrogate in a key name",
      () => ({
        method: "POST",
        url: "/api/api-keys",
        headers: buddies.org.headers,
        payload: { name: "key \ud800" },
      }),
      "Key name contains characters that are not allowed",
    ],
    [
      "CR/LF inside a call-to-action URL",
      () => ({
        method: "POST",
        url: "/api/marketing/collateral",
        headers: buddies.org.headers,
        payload: ad(`https://${host}/start\r\nSet-Cookie: a=b`),
      }),
      "Call to action URL contains characters that are not allowed",
    ],
    [
      "a NUL in a path id",
      () => ({ method: "GET", url: "/api/relationships/a%00b", headers: buddies.partner.headers }),
      "id contains characters that are not allowed",
    ],
    [
      "a NUL in a query",
      () => ({ method: "GET", url: "/api/organizations/search?query=tex%00t", headers: buddies.org.headers }),
      "Search contains characters that are not allowed",
    ],
    [
      "a NUL in a nested metadata value",
      () => ({
        method: "POST",
        url: "/api/marketing/conversion",
        headers: { "x-api-key": apiKey },
        payload: {
          clickId: buddies.clickId,
          type: "signup",
          metadata: { plan: { tiers: ["pro", "a\u0000b"] } },
        },
      }),
      "metadata contains characters that are not allowed",
    ],
    [
      "a lone surrogate in a metadata key",
      () => ({
        method: "POST",
        url: "/api/marketing/conversion",
        headers: { "x-api-key": apiKey },
        payload: { clickId: buddies.clickId, type: "signup", metadata: { "\udc00": "x" } },
      }),
      "metadata contains characters that are not allowed",
    ],
  ];
  it.each(cases)("refuses %s with 400 and the field's message", async (_name, request, message) => {
    const response = await t.app.inject(request());
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message });
  });

  it("keeps tab and line breaks in a multi-line field and still trims a single-line one", async () => {
    const notes = await t.app.inject({
      method: "PATCH",
      url: `/api/relationships/${buddies.relationships.toOrg.id}`,
      headers: buddies.partner.headers,
      payload: { notes: "line one\r\n\tline two" },
    });
    expect(notes.statusCode).toBe(200);
    expect(notes.json().notes).toBe("line one\r\n\tline two");
    const key = await t.app.inject({
      method: "POST",
      url: "/api/api-keys",
      headers: buddies.org.headers,
      payload: { name: " Zapier \n" },
    });
    expect(key.statusCode).toBe(201);
    const keys = (await t.app.inject({ url: "/api/api-keys", headers: buddies.org.headers })).json();
    expect(keys.map((k: { name: string }) => k.name)).toContain("Zapier");
  });

  it("stores collateral URLs as the URL parser writes them, not as typed", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/api/marketing/collateral",
      headers: buddies.org.headers,
      payload: {
        ...ad(`HTTPS://${host.toUpperCase()}/Sign Up?plan=pro plus`),
        imageUrl: `https://${host}/ad image.png`,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      ctaUrl: `https://${host}/Sign%20Up?plan=pro%20plus`,
      imageUrl: `https://${host}/ad%20image.png`,
    });
    const listed = (
      await t.app.inject({ url: "/api/marketing/collateral", headers: buddies.org.headers })
    ).json();
    expect(listed.find((item: { id: string }) => item.id === created.json().id)?.ctaUrl).toBe(
      `https://${host}/Sign%20Up?plan=pro%20plus`,
    );
  });
});
