import { createServer, type Server } from "node:http";

/** What the fixture website says about itself: onboarding autofills the company from it. */
export const FIXTURE_SITE = {
  title: "Fixture Analytics",
  siteName: "Fixture Analytics Platform International",
  description: "Product analytics for teams who ship every day, with funnels and cohorts.",
} as const;

/** A 1×1 PNG, for image URL previews. */
const PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

const ORG_ID = /^[A-Za-z0-9_-]{1,64}$/;

function page(title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>${title}</title>
    ${head}
  </head>
  <body>${body}</body>
</html>`;
}

/**
 * A partner's website on 127.0.0.1 (another origin than Buddy's):
 * - `/` has a title, og:site_name and a meta description (onboarding autofill);
 * - `/landing?org=ID` is a landing page with Buddy's click script for organization ID;
 * - `/thanks?org=ID` is its sign-up confirmation page with the conversion script (`data-type="signup"`);
 * - `/pricing?org=ID` has the click script, a Stripe Payment Link, a pricing table, and a buy button
 *   its own script adds a moment later (Stripe's scripts are not loaded: only the markup matters);
 * - `/ad.png` is an image.
 * The scripts load from Buddy's origin (E2E_BASE_URL, known once global setup has started it).
 */
export async function startFixtureSite(): Promise<Server> {
  const home = page(
    FIXTURE_SITE.title,
    `<meta property="og:site_name" content="${FIXTURE_SITE.siteName}">
    <meta name="description" content="${FIXTURE_SITE.description}">`,
    `<h1>${FIXTURE_SITE.title}</h1>`,
  );
  const site = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://fixture.invalid");
    const org = url.searchParams.get("org") ?? "";
    const buddy = process.env.E2E_BASE_URL ?? "";
    const html = (body: string) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(body);
    };
    if (url.pathname === "/ad.png") {
      response.writeHead(200, { "content-type": "image/png", "content-length": PIXEL_PNG.length });
      response.end(PIXEL_PNG);
    } else if ((url.pathname === "/landing" || url.pathname === "/thanks") && ORG_ID.test(org)) {
      const landing = url.pathname === "/landing";
      html(
        landing
          ? page(
              "Fixture landing",
              `<script src="${buddy}/api/tracking/click.js" data-org="${org}" async></script>`,
              `<h1>Welcome, partner visitor</h1><a href="/thanks?org=${org}">Sign up</a>`,
            )
          : page(
              "Fixture thanks",
              `<script src="${buddy}/api/tracking/conversion.js" data-org="${org}" data-type="signup" async></script>`,
              "<h1>Thanks for signing up</h1>",
            ),
      );
    } else if (url.pathname === "/pricing" && ORG_ID.test(org)) {
      html(
        page(
          "Fixture pricing",
          `<script src="${buddy}/api/tracking/click.js" data-org="${org}" async></script>`,
          `<h1>Pricing</h1>
          <a href="https://buy.stripe.com/test_fixture">Buy now</a>
          <stripe-pricing-table pricing-table-id="prctbl_fixture" publishable-key="pk_test_fixture"></stripe-pricing-table>
          <script>setTimeout(function () {
            var button = document.createElement("stripe-buy-button");
            button.setAttribute("buy-button-id", "buy_btn_fixture");
            document.body.appendChild(button);
          }, 300);</script>`,
        ),
      );
    } else {
      html(home);
    }
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  return site;
}

/** "127.0.0.1:PORT", as a user would type it into the Website field. */
export function fixtureHost(): string {
  const host = process.env.E2E_FIXTURE_HOST;
  if (!host) throw new Error("E2E_FIXTURE_HOST is not set: run through playwright's global setup");
  return host;
}

/**
 * A full URL on the fixture site, e.g. `fixtureUrl("/ad.png")`. With `domain` (a `*.localhost`
 * name, which Chromium sends to the loopback address), the same site under an organization's own
 * domain: an ad's links must be on its company's domain (CONTRACT §5).
 */
export function fixtureUrl(path: string, domain?: string): string {
  const host = domain ? `${domain}:${fixtureHost().split(":").at(-1)}` : fixtureHost();
  return `http://${host}${path}`;
}

/** A unique domain under `.localhost` whose pages the fixture site serves (see `fixtureUrl`). */
export const localhostDomain = (label: string) =>
  `${label}-${Math.floor(Math.random() * 1e9)}.localhost`.toLowerCase().replace(/[^a-z0-9.-]/g, "");
