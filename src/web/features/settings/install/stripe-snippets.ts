/**
 * How a purchase made through Stripe reaches the partner who sent the buyer (CONTRACT §8): the
 * click script keeps the click id in the browser (`window.buddy.clickId()` reads it from
 * localStorage), and Checkout carries it as `client_reference_id`.
 */
export const STRIPE_CHECKOUT_EXAMPLE = [
  "// In the browser, where your checkout starts (the click script is on your landing pages):",
  "const clickId = window.buddy && window.buddy.clickId(); // localStorage's buddy_bclickid",
  "",
  "// On your server, when you create the Checkout Session:",
  "const session = await stripe.checkout.sessions.create({",
  "  // …your line items, mode and URLs",
  "  client_reference_id: clickId || undefined,",
  "});",
].join("\n");
