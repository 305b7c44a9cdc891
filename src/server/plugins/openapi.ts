import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/** The public API, documented from the routes' own zod schemas so the docs cannot drift. */
const PUBLIC_API = new Set([
  "/api/ads",
  "/api/marketing/conversion",
  "/api/marketing/conversion/:clickId",
  "/api/marketing/redirect",
  "/s/:code",
  "/api/tracking/click.js",
  "/api/tracking/conversion.js",
]);

export const API_TAGS = { ads: "Ads API", conversions: "Conversion Tracking" } as const;

export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Buddy public API",
        version: "1.0.0",
        description:
          "Serve your Buddies' ads into your e-mails and record the leads their links bring you. " +
          "Server-to-server calls send an API key in the x-api-key header; the browser pixel and the " +
          "install scripts need none (a key must never be put in a web page).",
      },
      servers: [{ url: app.config.publicUrl }],
      components: {
        securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "x-api-key" } },
      },
      tags: [
        { name: API_TAGS.ads, description: "Partner ads, ready to paste into an e-mail." },
        { name: API_TAGS.conversions, description: "Clicks on tracked links, and the leads they turn into." },
      ],
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      if (!PUBLIC_API.has(input.url))
        return { ...transformed, schema: { ...transformed.schema, hide: true } };
      return transformed;
    },
  });

  app.get("/api/openapi.json", { config: { access: "public" }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
