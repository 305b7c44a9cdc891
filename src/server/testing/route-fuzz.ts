// The hostile requests of the route fuzz (plugins/route-fuzz.api.test.ts), derived from the app's
// OpenAPI document: every operation, every body, path and query field it documents.
import type { InjectOptions } from "fastify";

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
};
type Parameter = { in: "path" | "query" | "header" | "cookie"; name: string; schema: JsonSchema };
type OpenApiOperation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema: JsonSchema }> };
  security?: Record<string, string[]>[];
};
export type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>> };

export type Operation = {
  /** "POST /api/relationships/{id}", as the document writes it. */
  name: string;
  method: string;
  path: string;
  parameters: Parameter[];
  body: JsonSchema | undefined;
  apiKey: boolean;
};

export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      parameters: operation.parameters ?? [],
      body: operation.requestBody?.content?.["application/json"]?.schema,
      apiKey: (operation.security ?? []).some((requirement) => "apiKey" in requirement),
    })),
  );
}

/** Otherwise-valid values: real ids in the path, a valid query and body around the fuzzed field. */
export type BaseValues = {
  path: Record<string, string>;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
};

/**
 * What the answer must be: exactly 400 (refused by validation, never reaching a handler), exactly
 * 404 (a path whose every unknown value is simply not found), exactly 415 (a body the API does not
 * read), or a 4xx.
 */
export type Expectation = 400 | 404 | 415 | "4xx";

export type FuzzCase = {
  operation: string;
  /** `body.name`, `body.selectedCompetitors[]`, `body.metadata{}`, `query.limit`, `path.id`, `body` */
  field: string;
  payload: string;
  expect: Expectation;
  request: InjectOptions;
};

export const NUL = "a\u0000b";
export const LONE_SURROGATE = "\ud800";
const LONG = "x".repeat(10_000);
const NESTED = { a: { b: "c" } };
/** Deeper than any parser or walk that recurses on the call stack survives. */
const DEEP_JSON = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
/**
 * A lone surrogate cannot reach a path or a query: it has no UTF-8 form, so its CESU-8 bytes are
 * an escape that does not decode (a path then answers 400, a query keeps them as the literal
 * text they are), and one written raw is made U+FFFD by the URL parser.
 */
const UNDECODABLE = "%ED%A0%80";
const WHOLE_BODY_MB = [2, 20];

type JsonType = "string" | "number" | "boolean" | "null" | "array" | "object";

/** The JSON types a schema admits; all of them for a schema that says nothing (z.unknown()). */
function admittedTypes(schema: JsonSchema): Set<JsonType> {
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (branches.length > 0) return new Set(branches.flatMap((branch) => [...admittedTypes(branch)]));
  const types = [schema.type ?? []].flat();
  if (types.length === 0 && schema.enum) return new Set(schema.enum.map(jsonTypeOf));
  if (types.length === 0) return new Set(["string", "number", "boolean", "null", "array", "object"]);
  return new Set(types.map((type) => (type === "integer" ? "number" : type) as JsonType));
}

function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value as JsonType;
}

/** Every property of an object schema, and of each branch of a union of them. */
function propertiesOf(schema: JsonSchema): Map<string, JsonSchema[]> {
  const properties = new Map<string, JsonSchema[]>();
  for (const branch of [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    for (const [name, property] of Object.entries(branch.properties ?? {})) {
      properties.set(name, [...(properties.get(name) ?? []), property]);
    }
  }
  return properties;
}

type Payload = { name: string; value: unknown; expect: Expectation };

/** The hostile values of one JSON position; a structural one the position admits is no attack. */
function jsonPayloads(schemas: JsonSchema[]): Payload[] {
  const admitted = new Set(schemas.flatMap((schema) => [...admittedTypes(schema)]));
  const wrongType = ([12345, "not the right type", true] as const).find(
    (value) => !admitted.has(jsonTypeOf(value)),
  );
  const payloads: Payload[] = [
    { name: "NUL", value: NUL, expect: 400 },
    { name: "lone surrogate", value: LONE_SURROGATE, expect: 400 },
    { name: "10,000 characters", value: LONG, expect: "4xx" },
  ];
  if (wrongType !== undefined) payloads.push({ name: "wrong type", value: wrongType, expect: "4xx" });
  if (!admitted.has("null")) payloads.push({ name: "null", value: null, expect: "4xx" });
  if (!admitted.has("array")) payloads.push({ name: "array", value: ["a"], expect: "4xx" });
  if (!admitted.has("object")) payloads.push({ name: "nested object", value: NESTED, expect: "4xx" });
  if (admitted.has("array") || admitted.has("object"))
    payloads.push({ name: "100,000-deep JSON", value: DEEP, expect: "4xx" });
  return payloads;
}

/** Stands in for DEEP_JSON until the body is serialised: JSON.stringify would recurse through it. */
const DEEP = Symbol("deep");
const DEEP_MARKER = "__fuzz_deep_json__";

function jsonBody(body: Record<string, unknown>): string {
  return JSON.stringify(body, (_key, value) => (value === DEEP ? DEEP_MARKER : value)).replace(
    `"${DEEP_MARKER}"`,
    DEEP_JSON,
  );
}

/** Body positions: each property, the items of an array property, the keys and values of a map. */
function bodyPositions(schema: JsonSchema) {
  const positions: { field: string; schemas: JsonSchema[]; place: (value: unknown) => unknown }[] = [];
  for (const [name, schemas] of propertiesOf(schema)) {
    positions.push({ field: name, schemas, place: (value) => value });
    const items = schemas.flatMap((property) => (property.items ? [property.items] : []));
    if (items.length > 0) positions.push({ field: `${name}[]`, schemas: items, place: (value) => [value] });
    const values = schemas.flatMap((property) =>
      typeof property.additionalProperties === "object" ? [property.additionalProperties] : [],
    );
    if (values.length > 0) {
      positions.push({ field: `${name}{}`, schemas: values, place: (value) => ({ fuzz: value }) });
      positions.push({
        field: `${name}{key}`,
        schemas: [{ type: "string" }],
        place: (value) => (typeof value === "string" ? { [value]: "v" } : undefined),
      });
    }
  }
  return positions;
}

const fillPath = (path: string, values: Record<string, string>, raw: Record<string, string> = {}) =>
  path.replace(/\{(\w+)\}/g, (_match, name: string) => raw[name] ?? encodeURIComponent(values[name] ?? ""));

const queryString = (query: Record<string, string | string[]>) => {
  const parts = Object.entries(query).flatMap(([name, value]) =>
    [value].flat().map((item) => `${encodeURIComponent(name)}=${encodeURIComponent(item)}`),
  );
  return parts.length > 0 ? `?${parts.join("&")}` : "";
};

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Every hostile request for one operation, each with the others fields at their base values. */
export function fuzzCases(
  operation: Operation,
  base: BaseValues,
  headers: Record<string, string>,
): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const basePath = fillPath(operation.path, base.path);
  const baseQuery = queryString(base.query);
  const baseBody = base.body && JSON.stringify(base.body);
  const request = (overrides: Partial<InjectOptions>): InjectOptions => ({
    method: operation.method as InjectOptions["method"],
    url: `${basePath}${baseQuery}`,
    headers: baseBody ? { ...headers, "content-type": "application/json" } : headers,
    payload: baseBody,
    ...overrides,
  });
  const add = (field: string, payload: string, expect: Expectation, overrides: Partial<InjectOptions>) =>
    cases.push({ operation: operation.name, field, payload, expect, request: request(overrides) });

  for (const parameter of operation.parameters) {
    const field = `${parameter.in}.${parameter.name}`;
    if (parameter.in === "path") {
      const at = (value: string, raw?: string) => {
        const path = fillPath(
          operation.path,
          { ...base.path, [parameter.name]: value },
          raw ? { [parameter.name]: raw } : {},
        );
        return `${path}${baseQuery}`;
      };
      add(field, "NUL", 400, { url: at(NUL) });
      add(field, "undecodable %-escape", 400, { url: at("", UNDECODABLE) });
      add(field, "10,000 characters", "4xx", { url: at(LONG) });
      // Path segments are text only: no null, array or object can be written in one.
    } else if (parameter.in === "query") {
      const at = (value: string | string[]) =>
        `${basePath}${queryString({ ...base.query, [parameter.name]: value })}`;
      add(field, "NUL", 400, { url: at(NUL) });
      add(field, "10,000 characters", "4xx", { url: at(LONG) });
      // Every query value is text: a wrong type (or an unknown value) exists only for a field that is
      // not free text.
      const admitted = admittedTypes(parameter.schema);
      if (!admitted.has("string") || parameter.schema.enum)
        add(field, "wrong type", "4xx", { url: at(admitted.has("number") ? "not-a-number" : "12345") });
      add(field, "array", "4xx", { url: at([base.query[parameter.name] ?? "a", "b"]) });
    }
  }

  if (operation.body) {
    for (const position of bodyPositions(operation.body)) {
      for (const payload of jsonPayloads(position.schemas)) {
        const placed = position.place(payload.value);
        if (placed === undefined) continue;
        add(`body.${position.field}`, payload.name, payload.expect, {
          payload: jsonBody({ ...base.body, [position.field.replace(/[[{].*$/, "")]: placed }),
        });
      }
    }
  }

  if (BODY_METHODS.has(operation.method)) {
    const json = { ...headers, "content-type": "application/json" };
    add("body", "malformed JSON", "4xx", { headers: json, payload: '{"name": "unfinished' });
    add("body", "wrong content type", 415, {
      headers: { ...headers, "content-type": "application/xml" },
      payload: "<name>fuzz</name>",
    });
    // Fastify reads text/plain by default, and a schema then refused the text with 400.
    add("body", "JSON sent as text/plain", 415, {
      headers: { ...headers, "content-type": "text/plain" },
      payload: baseBody ?? "{}",
    });
    for (const megabytes of WHOLE_BODY_MB) {
      add("body", `${megabytes} MB`, "4xx", { headers: json, payload: hugeJson(megabytes) });
    }
  }
  return cases;
}

const hugeBodies = new Map<number, string>();
function hugeJson(megabytes: number): string {
  let body = hugeBodies.get(megabytes);
  if (!body) {
    body = `{"name":"${"x".repeat(megabytes * 1024 * 1024)}"}`;
    hugeBodies.set(megabytes, body);
  }
  return body;
}
