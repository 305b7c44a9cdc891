import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { JsonSchema } from "@/features/api-docs/openapi-types";
import { formatSchemaValue, schemaLimits } from "@/features/api-docs/schema-summary";
import { SchemaType } from "@/features/api-docs/schema-type";

const NONE = "—";

/** The top-level fields of a JSON body; nested objects show as `object` (none are documented deeper). */
export function RequestBodyFields({ schema, contentType }: { schema: JsonSchema; contentType: string }) {
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {});

  return (
    <div className="grid grid-cols-1 gap-2">
      <p className="text-muted-foreground text-xs">
        Content type <code className="font-mono">{contentType}</code>
      </p>
      {fields.length === 0 ? (
        <p className="text-sm">
          <SchemaType schema={schema} />
        </p>
      ) : (
        <Table data-testid="request-body-table">
          <TableHeader>
            <TableRow>
              <TableHead>Field</TableHead>
              <TableHead>Required</TableHead>
              <TableHead>Type</TableHead>
              <TableHead>Default</TableHead>
              <TableHead>Limits</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {fields.map(([name, field]) => (
              <TableRow key={name}>
                <TableCell>
                  <code className="font-mono font-semibold text-xs">{name}</code>
                  {field.description ? (
                    <p className="mt-1 text-muted-foreground text-xs">{field.description}</p>
                  ) : null}
                </TableCell>
                <TableCell className="text-xs">{required.has(name) ? "Yes" : "No"}</TableCell>
                <TableCell>
                  <SchemaType schema={field} />
                </TableCell>
                <TableCell className="font-mono text-xs">
                  {field.default === undefined ? NONE : formatSchemaValue(field.default)}
                </TableCell>
                <TableCell className="whitespace-nowrap text-xs">{schemaLimits(field) ?? NONE}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}
