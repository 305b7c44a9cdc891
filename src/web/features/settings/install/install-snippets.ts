import { escapeHtml } from "@shared/snippets";
import type { CONVERSION_TYPES } from "@shared/tracking";

/**
 * CONTRACT §5 install scripts, pre-configured for one organization. `origin` is Buddy's
 * PUBLIC_URL, as the server answers it, so the tags load the scripts from there.
 */
export function clickScriptTag(origin: string, organizationId: string): string {
  return `<script src="${escapeHtml(`${origin}/api/tracking/click.js`)}" data-org="${escapeHtml(organizationId)}" async></script>`;
}

export function conversionScriptTag(
  origin: string,
  organizationId: string,
  type: (typeof CONVERSION_TYPES)[number] = "signup",
): string {
  return `<script src="${escapeHtml(`${origin}/api/tracking/conversion.js`)}" data-org="${escapeHtml(organizationId)}" data-type="${type}" async></script>`;
}

/**
 * The conversion script's call for conversions that happen without a page load: the type alone.
 * It goes through the keyless pixel, which records leads only (CONTRACT §5): money, your customer
 * id and your own id for the event go from your server with your key (serverConversionExample).
 */
export const CONVERSION_CALL_EXAMPLE = "window.buddy.conversion('signup');";

/** CONTRACT §5 server-to-server conversion with an API key (SPEC §7 documented public API). */
export function serverConversionExample(origin: string): string {
  return [
    `curl -X POST ${origin}/api/marketing/conversion \\`,
    '  -H "x-api-key: YOUR_API_KEY" \\',
    '  -H "Content-Type: application/json" \\',
    `  -d '{"clickId": "CLICK_ID", "customerId": "cus_123", "type": "purchase", "value": 49.99, "currency": "USD", "eventId": "order_1001"}'`,
  ].join("\n");
}
