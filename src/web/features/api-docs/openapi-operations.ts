import {
  HTTP_METHODS,
  type HttpMethod,
  type JsonSchema,
  type OpenApiDocument,
  type Operation,
  type Parameter,
  type SecurityRequirement,
} from "@/features/api-docs/openapi-types";

export type DocumentedResponse = { status: string; reason: string | null; description: string | null };

export type DocumentedOperation = {
  /** `GET /api/ads`: unique within a document, used as React key and anchor. */
  id: string;
  method: HttpMethod;
  path: string;
  /** The path on the server the document names (`servers[0].url`). */
  url: string;
  tag: string;
  summary: string;
  description: string | null;
  parameters: Parameter[];
  requestBody: { contentType: string; required: boolean; schema: JsonSchema } | null;
  responses: DocumentedResponse[];
  /** SPEC §6 resolved from the document: true when the operation's `security` asks for a credential. */
  needsApiKey: boolean;
  /** The header that carries the key (`x-api-key`), from the security scheme; null without a key. */
  apiKeyHeader: string | null;
};

export type TagSection = { name: string; description: string | null; operations: DocumentedOperation[] };

/** Operations without a tag still need a tab, or they would silently vanish from the docs. */
export const UNTAGGED = "Other";

/** @fastify/swagger's placeholder when a route gives no text: saying it adds nothing to the status. */
const PLACEHOLDER_DESCRIPTION = "Default Response";

const REASON_PHRASES: Record<string, string> = {
  "200": "OK",
  "201": "Created",
  "204": "No Content",
  "302": "Found",
  "304": "Not Modified",
  "400": "Bad Request",
  "401": "Unauthorized",
  "403": "Forbidden",
  "404": "Not Found",
  "409": "Conflict",
  "413": "Payload Too Large",
  "415": "Unsupported Media Type",
  "429": "Too Many Requests",
  "500": "Internal Server Error",
};

/** `servers[0].url` without a trailing slash; the page's own origin when the document names none. */
export function serverUrl(doc: OpenApiDocument): string {
  const url = doc.servers?.[0]?.url ?? window.location.origin;
  return url.replace(/\/+$/, "");
}

/** Follows a local `#/components/schemas/…` reference; anything else is returned as it is. */
export function resolveSchema(doc: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema {
  if (!schema) return {};
  const prefix = "#/components/schemas/";
  if (!schema.$ref?.startsWith(prefix)) return schema;
  return doc.components?.schemas?.[schema.$ref.slice(prefix.length)] ?? {};
}

/**
 * An operation needs a key when its effective `security` (its own, else the document's) lists at
 * least one requirement and none of them is the empty "anonymous allowed" object.
 */
export function requiresApiKey(requirements: SecurityRequirement[]): boolean {
  return requirements.length > 0 && requirements.every((entry) => Object.keys(entry).length > 0);
}

function apiKeyHeaderFor(doc: OpenApiDocument, requirements: SecurityRequirement[]): string | null {
  for (const requirement of requirements) {
    for (const name of Object.keys(requirement)) {
      const scheme = doc.components?.securitySchemes?.[name];
      if (scheme?.type === "apiKey" && scheme.in === "header" && scheme.name) return scheme.name;
    }
  }
  return null;
}

/** Path-level parameters apply to every operation unless the operation redefines them. */
function mergeParameters(shared: Parameter[] = [], own: Parameter[] = []): Parameter[] {
  const ownKeys = new Set(own.map((parameter) => `${parameter.in}:${parameter.name}`));
  const merged = [...shared.filter((parameter) => !ownKeys.has(`${parameter.in}:${parameter.name}`)), ...own];
  // Path parameters first: they are part of the address, the rest refines it.
  return merged.sort((a, b) => Number(b.in === "path") - Number(a.in === "path"));
}

function documentResponses(operation: Operation): DocumentedResponse[] {
  return Object.entries(operation.responses ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, response]) => ({
      status,
      reason: REASON_PHRASES[status] ?? null,
      description:
        response.description && response.description !== PLACEHOLDER_DESCRIPTION
          ? response.description
          : null,
    }));
}

function documentRequestBody(doc: OpenApiDocument, operation: Operation): DocumentedOperation["requestBody"] {
  const content = operation.requestBody?.content;
  if (!content) return null;
  const contentType = "application/json" in content ? "application/json" : Object.keys(content)[0];
  if (!contentType) return null;
  return {
    contentType,
    required: operation.requestBody?.required ?? false,
    schema: resolveSchema(doc, content[contentType]?.schema),
  };
}

/** Every operation of the document, in the document's order. */
export function listOperations(doc: OpenApiDocument): DocumentedOperation[] {
  const base = serverUrl(doc);
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method];
      if (!operation) return [];
      const security = operation.security ?? doc.security ?? [];
      const needsApiKey = requiresApiKey(security);
      return [
        {
          id: `${method.toUpperCase()} ${path}`,
          method,
          path,
          url: `${base}${path}`,
          tag: operation.tags?.[0] ?? UNTAGGED,
          summary: operation.summary ?? `${method.toUpperCase()} ${path}`,
          description: operation.description ?? null,
          parameters: mergeParameters(item.parameters, operation.parameters).map((parameter) => ({
            ...parameter,
            schema: resolveSchema(doc, parameter.schema),
          })),
          requestBody: documentRequestBody(doc, operation),
          responses: documentResponses(operation),
          needsApiKey,
          apiKeyHeader: needsApiKey ? apiKeyHeaderFor(doc, security) : null,
        },
      ];
    }),
  );
}

/** One section per tag, in the order the document declares its tags (the page's tabs). */
export function groupByTag(doc: OpenApiDocument, operations: DocumentedOperation[]): TagSection[] {
  const declared = (doc.tags ?? []).map((tag) => ({ name: tag.name, description: tag.description ?? null }));
  const undeclared = [...new Set(operations.map((operation) => operation.tag))]
    .filter((name) => !declared.some((tag) => tag.name === name))
    .map((name) => ({ name, description: null }));
  return [...declared, ...undeclared]
    .map((tag) => ({ ...tag, operations: operations.filter((operation) => operation.tag === tag.name) }))
    .filter((section) => section.operations.length > 0);
}
