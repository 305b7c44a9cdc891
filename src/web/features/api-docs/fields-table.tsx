import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { DocText } from "@/features/api-docs/doc-text";
import type { JsonSchema } from "@/features/api-docs/openapi-types";
import { SchemaType } from "@/features/api-docs/schema-type";

/**
 * Names and what they mean: a payload's fields, a message's headers, a CSV's columns; with a Type
 * column when the rows carry their schema (a webhook message's fields).
 */
export function FieldsTable({
  heading,
  rows,
  testId,
}: {
  heading: string;
  rows: readonly (readonly [name: string, description: string, schema?: JsonSchema])[];
  testId?: string;
}) {
  const typed = rows.some(([, , schema]) => schema !== undefined);
  return (
    <Table data-testid={testId}>
      <TableHeader>
        <TableRow>
          <TableHead>{heading}</TableHead>
          {typed ? <TableHead>Type</TableHead> : null}
          <TableHead>Meaning</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map(([name, description, schema]) => (
          <TableRow key={name}>
            <TableCell className="whitespace-nowrap">
              <code className="font-mono font-semibold text-xs">{name}</code>
            </TableCell>
            {typed ? <TableCell>{schema ? <SchemaType schema={schema} /> : null}</TableCell> : null}
            <TableCell className="text-xs leading-relaxed">
              <DocText text={description} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
