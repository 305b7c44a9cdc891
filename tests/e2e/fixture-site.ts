import { createServer, type Server } from "node:http";

/** What the fixture website says about itself: onboarding autofills the company from it. */
export const FIXTURE_SITE = {
  title: "Fixture Analytics",
  siteName: "Fixture Analytics Platform International",
  description: "Product analytics for teams who ship every day, with funnels and cohorts.",
} as const;

/** A small website on 127.0.0.1 with a title, og:site_name and a meta description. */
export async function startFixtureSite(): Promise<Server> {
  const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>${FIXTURE_SITE.title}</title>
    <meta property="og:site_name" content="${FIXTURE_SITE.siteName}">
    <meta name="description" content="${FIXTURE_SITE.description}">
  </head>
  <body><h1>${FIXTURE_SITE.title}</h1></body>
</html>`;
  const site = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(page);
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
