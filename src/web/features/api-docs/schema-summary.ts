import type { JsonSchema } from "@/features/api-docs/openapi-types";
import { numberFormat } from "@/lib/number-format";

/** `string`, `integer`, `string or null`, `array of string`; enums are listed apart (`schemaEnum`). */
export function schemaTypeLabel(schema: JsonSchema): string {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return variants.map(schemaTypeLabel).join(" or ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? "object" : "any";
  return types
    .map((type) => (type === "array" && schema.items ? `array of ${schemaTypeLabel(schema.items)}` : type))
    .join(" or ");
}

/** The allowed values as text (`json`, `html`, `text`), or null when the schema has no enum. */
export function schemaEnum(schema: JsonSchema): string[] | null {
  return schema.enum?.length ? schema.enum.map(formatSchemaValue) : null;
}

function range(min: number | undefined, max: number | undefined, unit = ""): string | null {
  const suffix = unit ? ` ${unit}` : "";
  if (min !== undefined && max !== undefined) {
    return `${numberFormat().format(min)}–${numberFormat().format(max)}${suffix}`;
  }
  if (min !== undefined) return `min ${numberFormat().format(min)}${suffix}`;
  if (max !== undefined) return `max ${numberFormat().format(max)}${suffix}`;
  return null;
}

/** Bounds in words: `1–5` for numbers, `max 64 characters` for strings; null when unbounded. */
export function schemaLimits(schema: JsonSchema): string | null {
  const parts = [
    range(schema.minimum ?? schema.exclusiveMinimum, schema.maximum ?? schema.exclusiveMaximum),
    range(schema.minLength, schema.maxLength, "characters"),
  ].filter((part): part is string => part !== null);
  return parts.length ? parts.join(", ") : null;
}

/** A default or enum value as it would be typed in a query string or JSON body. */
export function formatSchemaValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
