import { adsQuerySchema } from "@shared/ads";
import { describe, expect, it } from "vitest";
import { createAdsQueryValidator } from "./ads-query";

const validate = createAdsQueryValidator()({
  schema: adsQuerySchema,
  method: "GET",
  url: "/api/ads",
  httpPart: "querystring",
}) as (data: unknown) => { value?: unknown; error?: unknown };

describe("the Ads API query validator", () => {
  it("answers well-formed queries exactly as the schema parses them", () => {
    for (const query of [
      {},
      { format: "json" },
      { format: "html", limit: "5", includeSuggestions: "true", template: "banner" },
      { limit: "3", unknown: "ignored" },
    ])
      expect(validate(query).value, JSON.stringify(query)).toEqual(adsQuerySchema.parse(query));
  });

  it("leaves everything else, errors included, to the schema", () => {
    for (const query of [{ limit: "0" }, { limit: "" }, { format: "" }, { format: ["json", "html"] }])
      expect(validate(query).error, JSON.stringify(query)).toBeDefined();
    expect(validate({ limit: "02" }).value).toMatchObject({ limit: 2 });
  });
});
