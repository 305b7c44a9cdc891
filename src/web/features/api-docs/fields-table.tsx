import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { DocText } from "@/features/api-docs/doc-text";

/** Names and what they mean: a payload's fields, a message's headers, a CSV's columns. */
export function FieldsTable({
  heading,
  rows,
  testId,
}: {
  heading: string;
  rows: readonly (readonly [name: string, description: string])[];
  testId?: string;
}) {
  return (
    <Table data-testid={testId}>
      <TableHeader>
        <TableRow>
          <TableHead>{heading}</TableHead>
          <TableHead>Meaning</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map(([name, description]) => (
          <TableRow key={name}>
            <TableCell className="whitespace-nowrap">
              <code className="font-mono font-semibold text-xs">{name}</code>
            </TableCell>
            <TableCell className="text-xs leading-relaxed">
              <DocText text={description} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
