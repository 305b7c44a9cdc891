/**
 * The part of an OpenAPI 3.1 document this screen reads. The server generates the document from
 * its routes' own zod schemas (GET /api/openapi.json), so these types describe what @fastify/swagger
 * emits rather than the whole specification.
 */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  description?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

export type Parameter = {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
};

export type RequestBody = {
  required?: boolean;
  description?: string;
  content?: Record<string, { schema?: JsonSchema }>;
};

export type ApiResponse = {
  description?: string;
  content?: Record<string, { schema?: JsonSchema }>;
};

/** Each entry names a security scheme; an empty array means no credentials at all. */
export type SecurityRequirement = Record<string, string[]>;

export type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses?: Record<string, ApiResponse>;
  security?: SecurityRequirement[];
};

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete", "head", "options"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItem = Partial<Record<HttpMethod, Operation>> & { parameters?: Parameter[] };

export type SecurityScheme = {
  type: string;
  in?: "query" | "header" | "cookie";
  name?: string;
  description?: string;
};

export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, PathItem>;
  components?: {
    schemas?: Record<string, JsonSchema>;
    securitySchemes?: Record<string, SecurityScheme>;
  };
  security?: SecurityRequirement[];
};
