import type { JsonSchema } from "@/features/api-docs/openapi-types";
import { schemaEnum, schemaTypeLabel } from "@/features/api-docs/schema-summary";

/** A type cell: the JSON type, and when the schema has an enum, every allowed value. */
export function SchemaType({ schema }: { schema: JsonSchema }) {
  const values = schemaEnum(schema);
  return (
    <div className="grid gap-1">
      <span className="font-mono text-xs">{schemaTypeLabel(schema)}</span>
      {values ? (
        <ul aria-label="Allowed values" className="flex flex-wrap gap-1">
          {values.map((value) => (
            <li key={value}>
              <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs">{value}</code>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
