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
  });
});
