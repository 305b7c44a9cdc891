import { describe, expect, it } from "vitest";
import { makeOpenApiDocument } from "@/features/api-docs/openapi-fixture";
import {
  groupByTag,
  listOperations,
  requiresApiKey,
  serverUrl,
} from "@/features/api-docs/openapi-operations";

describe("listOperations", () => {
  it("lists each operation with its server URL, tag and whether its security asks for a key", () => {
    const operations = listOperations(makeOpenApiDocument());
    expect(
      operations.map(({ id, url, tag, needsApiKey, apiKeyHeader }) => ({
        id,
        url,
        tag,
        needsApiKey,
        apiKeyHeader,
      })),
    ).toEqual([
      {
        id: "GET /api/ads",
        url: "https://buddy.example/api/ads",
        tag: "Ads API",
        needsApiKey: true,
        apiKeyHeader: "x-api-key",
      },
      {
        id: "POST /api/marketing/conversion",
        url: "https://buddy.example/api/marketing/conversion",
        tag: "Conversion Tracking",
        needsApiKey: true,
        apiKeyHeader: "x-api-key",
      },
      {
        id: "GET /api/marketing/conversion/{clickId}",
        url: "https://buddy.example/api/marketing/conversion/{clickId}",
        tag: "Conversion Tracking",
        needsApiKey: false,
        apiKeyHeader: null,
      },
      {
        id: "GET /api/tracking/click.js",
        url: "https://buddy.example/api/tracking/click.js",
        tag: "Conversion Tracking",
        needsApiKey: false,
        apiKeyHeader: null,
      },
    ]);
  });

  it("falls back to the document's security when an operation declares none, and an empty list overrides it", () => {
    const doc = makeOpenApiDocument();
    doc.security = [{ apiKey: [] }];
    const ads = doc.paths["/api/ads"]?.get;
    if (ads) delete ads.security;
    const operations = listOperations(doc);
    expect(operations.find((operation) => operation.id === "GET /api/ads")?.needsApiKey).toBe(true);
    expect(operations.find((operation) => operation.id === "GET /api/tracking/click.js")?.needsApiKey).toBe(
      false,
    );
  });

  it("puts path parameters first and drops the generator's placeholder response text", () => {
    const [, , pixel] = listOperations(makeOpenApiDocument());
    expect(pixel?.parameters.map((parameter) => parameter.name)).toEqual(["clickId", "type"]);
    expect(pixel?.responses).toEqual([{ status: "200", reason: "OK", description: null }]);
    const [ads] = listOperations(makeOpenApiDocument());
    expect(ads?.responses[1]).toEqual({
      status: "401",
      reason: "Unauthorized",
      description: "Missing or invalid key",
    });
  });
});

describe("requiresApiKey", () => {
  it("is true only when every requirement names a scheme", () => {
    expect(requiresApiKey([])).toBe(false);
    expect(requiresApiKey([{}])).toBe(false);
    expect(requiresApiKey([{ apiKey: [] }, {}])).toBe(false);
    expect(requiresApiKey([{ apiKey: [] }])).toBe(true);
  });
});

describe("groupByTag", () => {
  it("follows the document's tag order and keeps untagged operations under 'Other'", () => {
    const doc = makeOpenApiDocument();
    doc.paths["/api/ping"] = { get: { summary: "Ping", security: [] } };
    const sections = groupByTag(doc, listOperations(doc));
    expect(sections.map((section) => [section.name, section.operations.length])).toEqual([
      ["Ads API", 1],
      ["Conversion Tracking", 3],
      ["Other", 1],
    ]);
  });
});

describe("serverUrl", () => {
  it("uses servers[0] without its trailing slash", () => {
    expect(serverUrl(makeOpenApiDocument())).toBe("https://buddy.example");
  });
});
