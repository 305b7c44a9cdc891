import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { Parameter } from "@/features/api-docs/openapi-types";
import { formatSchemaValue, schemaLimits } from "@/features/api-docs/schema-summary";
import { SchemaType } from "@/features/api-docs/schema-type";

const NONE = "—";

export function ParametersTable({ parameters }: { parameters: Parameter[] }) {
  return (
    <Table data-testid="parameters-table">
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>In</TableHead>
          <TableHead>Required</TableHead>
          <TableHead>Type</TableHead>
          <TableHead>Default</TableHead>
          <TableHead>Limits</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {parameters.map((parameter) => {
          const schema = parameter.schema ?? {};
          return (
            <TableRow key={`${parameter.in}:${parameter.name}`}>
              <TableCell>
                <code className="font-mono font-semibold text-xs">{parameter.name}</code>
                {parameter.description ? (
                  <p className="mt-1 text-muted-foreground text-xs">{parameter.description}</p>
                ) : null}
              </TableCell>
              <TableCell className="text-xs">{parameter.in}</TableCell>
              <TableCell className="text-xs">{parameter.required ? "Yes" : "No"}</TableCell>
              <TableCell>
                <SchemaType schema={schema} />
              </TableCell>
              <TableCell className="font-mono text-xs">
                {schema.default === undefined ? NONE : formatSchemaValue(schema.default)}
              </TableCell>
              <TableCell className="whitespace-nowrap text-xs">{schemaLimits(schema) ?? NONE}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
