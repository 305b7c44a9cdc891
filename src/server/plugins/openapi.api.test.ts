import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("the published OpenAPI document", () => {
  it("documents exactly the public API, with the key where it is needed and none for the pixel", async () => {
    const response = await t.app.inject({ url: "/api/openapi.json" });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/api/ads",
        "/api/exports/clicks.csv",
        "/api/exports/conversions.csv",
        "/api/integrations/stripe/webhook/{organizationId}",
        "/api/marketing/conversion",
        "/api/marketing/conversion/{clickId}",
        "/api/marketing/redirect",
        "/api/tracking/click.js",
        "/api/tracking/conversion.js",
        "/s/{code}",
        "/api/overlap",
        "/api/overlap/discoverable",
        "/api/overlap/discovery",
        "/api/overlap/partners",
        "/api/overlap/partners/{partnerId}",
        "/api/overlap/populations/{population}",
        "/api/overlap/runs",
        "/api/overlap/runs/{id}",
        "/api/overlap/runs/{id}/answer",
        "/api/overlap/runs/{id}/complete",
      ].sort(),
    );
    expect(doc.components.securitySchemes.apiKey).toEqual({
      type: "apiKey",
      in: "header",
      name: "x-api-key",
    });
    expect(doc.paths["/api/ads"].get.security).toEqual([{ apiKey: [] }]);
    expect(doc.paths["/api/marketing/conversion"].post.security).toEqual([{ apiKey: [] }]);
    expect(doc.paths["/api/marketing/conversion/{clickId}"].get.security).toEqual([]);
    expect(doc.paths["/api/integrations/stripe/webhook/{organizationId}"].post.security).toEqual([]);
    const limit = doc.paths["/api/ads"].get.parameters.find((p: { name: string }) => p.name === "limit");
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 5, default: 1 });
    const body = doc.paths["/api/marketing/conversion"].post.requestBody.content["application/json"].schema;
    // One of clickId and customerId, which the schema checks beyond what JSON Schema says here.
    expect(body.required).toEqual(["type"]);
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(["clickId", "customerId", "value", "currency", "eventId", "metadata"]),
    );
    expect(body.properties.type.enum).toEqual([
      "signup",
      "trial",
      "purchase",
      "upgrade",
      "activation",
      "referral",
    ]);
    // The keyless pixel records leads only (CONTRACT §5): it takes a type and an organization, and
    // says where money, event ids and customer ids go instead.
    const pixel = doc.paths["/api/marketing/conversion/{clickId}"].get;
    expect(pixel.parameters.map((p: { name: string }) => p.name).sort()).toEqual(["clickId", "org", "type"]);
    expect(pixel.description).toContain("records leads only");
    expect(pixel.description).toContain("POST /api/marketing/conversion");
    expect(pixel.responses["400"].description).toContain("customerId");
  });

  it("names every operation once, in camelCase, and describes each answer in its own media type", async () => {
    const doc = (await t.app.inject({ url: "/api/openapi.json" })).json();
    type Response = { content?: Record<string, unknown>; headers?: Record<string, unknown> };
    type Operation = { operationId?: string; responses: Record<string, Response> };
    const operations: Operation[] = Object.values(
      doc.paths as Record<string, Record<string, Operation>>,
    ).flatMap((item) => Object.values(item));
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][a-zA-Z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(operations.length);

    const answers = (path: string, method = "get") =>
      doc.paths[path][method].responses as Record<string, Response>;
    const mediaTypes = (response: Response | undefined) => Object.keys(response?.content ?? {});
    expect(mediaTypes(answers("/api/ads")["200"])).toEqual(["application/json", "text/html", "text/plain"]);
    for (const link of ["/s/{code}", "/api/marketing/redirect"]) {
      expect(answers(link)["302"]?.content).toBeUndefined();
      expect(Object.keys(answers(link)["302"]?.headers ?? {})).toContain("Location");
    }
    expect(Object.keys(answers("/s/{code}")).sort()).toEqual(["302", "400", "404"]);
    const pixel = answers("/api/marketing/conversion/{clickId}");
    expect(Object.keys(pixel).sort()).toEqual(["200", "400", "404", "429"]);
    expect(mediaTypes(pixel["200"])).toEqual(["image/gif"]);
    expect(Object.keys(pixel["429"]?.headers ?? {})).toEqual(["Retry-After"]);
    expect(Object.keys(answers("/api/marketing/conversion", "post")).sort()).toEqual([
      "200",
      "201",
      "400",
      "401",
      "404",
    ]);
    for (const file of ["conversions", "clicks"])
      expect(mediaTypes(answers(`/api/exports/${file}.csv`)["200"])).toEqual(["text/csv"]);
    expect(mediaTypes(answers("/api/tracking/click.js")["200"])).toEqual(["application/javascript"]);
    expect(answers("/api/tracking/click.js")["304"]?.content).toBeUndefined();
  });
});
