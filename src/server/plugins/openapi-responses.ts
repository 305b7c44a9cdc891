import { errorBodySchema } from "@shared/http";
import { z } from "zod";

/**
 * Response entries for route schemas that the published OpenAPI document turns into what each
 * answer really is (issue 28: a document generated clients can trust). A zod schema's metadata
 * reaches the document as it is, so `description` becomes the response's text and `headers` its
 * headers (@fastify/swagger moves them out of the body's schema); a `null` body is an answer
 * without content.
 */

type HeaderSchemas = Record<string, { type: "string" | "integer"; format?: string; description: string }>;

/** CONTRACT §2's `{message}`, with what makes the route answer it. */
export const errorResponse = (description: string) => errorBodySchema.meta({ description });

/** 429 `{message}` from a rate limit, with the seconds to wait (CONTRACT §2). */
export const rateLimitedResponse = (description: string) =>
  errorBodySchema.meta({
    description,
    headers: {
      "Retry-After": { type: "integer", description: "Seconds to wait before trying again." },
    } satisfies HeaderSchemas,
  });

/** A 302 to `Location`, without a body. */
export const redirectResponse = (description: string, location: string) =>
  z.null().meta({
    description,
    headers: {
      Location: { type: "string", format: "uri", description: location },
      "Cache-Control": { type: "string", description: "`no-store`: every hit is a click of its own." },
    } satisfies HeaderSchemas,
  });

/** An answer without a body (a 304 to a conditional request). */
export const emptyResponse = (description: string) => z.null().meta({ description });

/**
 * A body that is not JSON, or that comes in several media types: one schema per type. Fastify
 * serializes by the reply's type; these routes send text, a stream or bytes of their own.
 */
export function contentResponse(description: string, content: Record<string, z.ZodType>) {
  return {
    description,
    content: Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema }])),
  };
}

/** Text of a media type that is not JSON (CSV, HTML, a script). */
export const textBody = () => z.string();

/** Bytes of a media type such as image/gif. */
export const binaryBody = (mediaType: string) => z.string().meta({ contentMediaType: mediaType });
