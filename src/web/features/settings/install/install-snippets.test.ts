import { describe, expect, it } from "vitest";
import {
  CONVERSION_CALL_EXAMPLE,
  clickScriptTag,
  conversionScriptTag,
  serverConversionExample,
} from "@/features/settings/install/install-snippets";

describe("install snippets", () => {
  it("point at this Buddy's scripts with the organization id (CONTRACT §5)", () => {
    expect(clickScriptTag("https://app.buddy.example", "org-1")).toBe(
      '<script src="https://app.buddy.example/api/tracking/click.js" data-org="org-1" async></script>',
    );
    expect(conversionScriptTag("https://app.buddy.example", "org-1", "purchase")).toBe(
      '<script src="https://app.buddy.example/api/tracking/conversion.js" data-org="org-1" data-type="purchase" async></script>',
    );
  });

  it("escape attribute values", () => {
    expect(clickScriptTag("https://x.example", 'a"><b')).toContain('data-org="a&quot;&gt;&lt;b"');
  });

  it("call the keyless script with a type alone: money and ids go with the key (CONTRACT §5)", () => {
    expect(CONVERSION_CALL_EXAMPLE).toBe("window.buddy.conversion('signup');");
    for (const field of ["value", "currency", "customerId", "eventId", "49"])
      expect(CONVERSION_CALL_EXAMPLE).not.toContain(field);
  });

  it("show the server-side conversion with an x-api-key", () => {
    expect(serverConversionExample("https://x.example")).toBe(
      [
        "curl -X POST https://x.example/api/marketing/conversion \\",
        '  -H "x-api-key: YOUR_API_KEY" \\',
        '  -H "Content-Type: application/json" \\',
        `  -d '{"clickId": "CLICK_ID", "customerId": "cus_123", "type": "purchase", "value": 49.99, "currency": "USD", "eventId": "order_1001"}'`,
      ].join("\n"),
    );
  });
});
