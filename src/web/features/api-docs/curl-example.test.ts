import { describe, expect, it } from "vitest";
import { buildCurlExample, placeholderFor } from "@/features/api-docs/curl-example";
import { makeOpenApiDocument } from "@/features/api-docs/openapi-fixture";
import { listOperations } from "@/features/api-docs/openapi-operations";

function curlFor(id: string): string {
  const operation = listOperations(makeOpenApiDocument()).find((candidate) => candidate.id === id);
  if (!operation) throw new Error(`no operation ${id}`);
  return buildCurlExample(operation);
}

describe("buildCurlExample", () => {
  it("sends the key header and the query parameters' defaults for a keyed GET", () => {
    expect(curlFor("GET /api/ads")).toBe(
      "curl -H 'x-api-key: YOUR_KEY' 'https://buddy.example/api/ads?format=json&limit=1'",
    );
  });

  it("builds a POST with its JSON body from the schema, one option per line", () => {
    expect(curlFor("POST /api/marketing/conversion")).toBe(
      [
        "curl \\",
        "  -X POST \\",
        "  -H 'x-api-key: YOUR_KEY' \\",
        "  -H 'Content-Type: application/json' \\",
        `  -d '{"clickId":"CLICK_ID","type":"signup","value":0}' \\`,
        "  'https://buddy.example/api/marketing/conversion'",
      ].join("\n"),
    );
  });

  it("sends no key where the operation needs none, and fills path parameters with placeholders", () => {
    expect(curlFor("GET /api/marketing/conversion/{clickId}")).toBe(
      "curl 'https://buddy.example/api/marketing/conversion/CLICK_ID?type=TYPE'",
    );
    expect(curlFor("GET /api/tracking/click.js")).toBe("curl 'https://buddy.example/api/tracking/click.js'");
  });

  it("escapes single quotes for the shell", () => {
    const [ads] = listOperations(makeOpenApiDocument());
    if (!ads) throw new Error("no operation");
    const command = buildCurlExample({ ...ads, url: "https://buddy.example/it's", parameters: [] });
    expect(command).toBe(`curl -H 'x-api-key: YOUR_KEY' 'https://buddy.example/it'\\''s'`);
  });
});

describe("placeholderFor", () => {
  it("turns a parameter name into an obvious placeholder", () => {
    expect(placeholderFor("clickId")).toBe("CLICK_ID");
    expect(placeholderFor("org")).toBe("ORG");
  });
});
