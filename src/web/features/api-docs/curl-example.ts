import type { DocumentedOperation } from "@/features/api-docs/openapi-operations";
import type { JsonSchema } from "@/features/api-docs/openapi-types";

/** What the reader replaces with a key from Settings → API keys. */
export const API_KEY_PLACEHOLDER = "YOUR_KEY";

/** `clickId` → `CLICK_ID`: a value the reader must fill in, obviously not a real one. */
export function placeholderFor(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .toUpperCase();
}

/** The document's own example or default first, then the first allowed value, then a placeholder. */
function exampleValue(schema: JsonSchema | undefined, name: string): unknown {
  if (!schema) return placeholderFor(name);
  if (schema.examples?.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "integer":
    case "number":
      return schema.minimum ?? 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return schema.properties ? exampleBody(schema) : {};
    default:
      return placeholderFor(name);
  }
}

function exampleBody(schema: JsonSchema): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, property]) => [name, exampleValue(property, name)]),
  );
}

/** POSIX single quotes: nothing inside is expanded, and a quote is closed, escaped and reopened. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A curl command built only from the operation, so it matches the server's schema: every path and
 * query parameter with an example value, the key header when `security` asks for one, the body.
 */
export function buildCurlExample(operation: DocumentedOperation): string {
  let url = operation.url;
  const query = new URLSearchParams();
  for (const parameter of operation.parameters) {
    const value = String(exampleValue(parameter.schema, parameter.name));
    if (parameter.in === "path") url = url.replace(`{${parameter.name}}`, encodeURIComponent(value));
    if (parameter.in === "query") query.append(parameter.name, value);
  }
  const search = query.toString();
  if (search) url = `${url}?${search}`;

  const options: string[] = [];
  if (operation.method !== "get") options.push(`-X ${operation.method.toUpperCase()}`);
  if (operation.apiKeyHeader)
    options.push(`-H ${shellQuote(`${operation.apiKeyHeader}: ${API_KEY_PLACEHOLDER}`)}`);
  for (const parameter of operation.parameters.filter((candidate) => candidate.in === "header")) {
    const value = String(exampleValue(parameter.schema, parameter.name));
    options.push(`-H ${shellQuote(`${parameter.name}: ${value}`)}`);
  }
  if (operation.requestBody) {
    options.push(`-H ${shellQuote(`Content-Type: ${operation.requestBody.contentType}`)}`);
    options.push(`-d ${shellQuote(JSON.stringify(exampleBody(operation.requestBody.schema)))}`);
  }
  // One option per line once there are several, as curl examples are usually read and edited.
  return ["curl", ...options, shellQuote(url)].join(options.length > 1 ? " \\\n  " : " ");
}
