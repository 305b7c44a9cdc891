import { FileSpreadsheet } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { BulletList } from "@/features/api-docs/bullet-list";
import { API_KEY_PLACEHOLDER } from "@/features/api-docs/curl-example";
import { CurlExampleBlock } from "@/features/api-docs/curl-example-block";
import { DocSection } from "@/features/api-docs/doc-section";
import {
  CLICK_REASON_RULES,
  CLICK_REASON_TEXT,
  EXPORT_RULES,
  EXPORTS,
} from "@/features/api-docs/export-reference";
import { FieldsTable } from "@/features/api-docs/fields-table";
import { EndpointLine } from "@/features/api-docs/method-badge";

/** CONTRACT §9 exports: every conversion or click of a date range as CSV, for a script or a person. */
export function ExportsGuide({ baseUrl }: { baseUrl: string }) {
  return (
    <Card data-testid="exports-guide">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FileSpreadsheet aria-hidden="true" className="size-5" />
          CSV exports
        </CardTitle>
        <CardDescription>
          Every conversion or click of a date range, for a spreadsheet or a data warehouse. Send your API key
          in the x-api-key header, or a dashboard session's token as Authorization: Bearer.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-5">
        <BulletList items={EXPORT_RULES} />
        {EXPORTS.map((file) => (
          <DocSection key={file.path} title={file.title}>
            <EndpointLine method="get">{file.path}?from=YYYY-MM-DD&amp;to=YYYY-MM-DD</EndpointLine>
            <FieldsTable
              heading="Column"
              rows={file.columns}
              testId={`export-columns-${file.title.toLowerCase()}`}
            />
            <CurlExampleBlock
              command={`curl -H 'x-api-key: ${API_KEY_PLACEHOLDER}' -o ${file.path.split("/").pop()} '${baseUrl}${file.path}?from=2026-01-01&to=2026-01-31'`}
              label={`${file.title.toLowerCase()} export`}
            />
          </DocSection>
        ))}
        <DocSection title="Clicks that count">
          <BulletList items={CLICK_REASON_RULES} />
          <FieldsTable
            heading="reason"
            rows={Object.entries(CLICK_REASON_TEXT).map(([name, text]) => [name, text] as const)}
            testId="click-reasons"
          />
        </DocSection>
      </CardContent>
    </Card>
  );
}
