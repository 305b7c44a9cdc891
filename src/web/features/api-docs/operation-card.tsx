import { useId } from "react";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { buildCurlExample } from "@/features/api-docs/curl-example";
import { CurlExampleBlock } from "@/features/api-docs/curl-example-block";
import { DocSection } from "@/features/api-docs/doc-section";
import { DocText } from "@/features/api-docs/doc-text";
import { KeyBadge } from "@/features/api-docs/key-badge";
import { EndpointLine } from "@/features/api-docs/method-badge";
import type { DocumentedOperation } from "@/features/api-docs/openapi-operations";
import { ParametersTable } from "@/features/api-docs/parameters-table";
import { RequestBodyFields } from "@/features/api-docs/request-body-fields";
import { ResponsesList } from "@/features/api-docs/responses-list";

/** One operation of the published document: address, key requirement, inputs, outputs, example. */
export function OperationCard({ operation }: { operation: DocumentedOperation }) {
  const headingId = useId();

  return (
    <article
      data-testid="api-operation"
      data-operation={operation.id}
      aria-labelledby={headingId}
      className="min-w-0"
    >
      <Card className="gap-5">
        <CardHeader className="gap-2">
          <EndpointLine method={operation.method} testId="operation-url">
            {operation.url}
          </EndpointLine>
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={headingId} className="font-semibold">
              {operation.summary}
            </h3>
            <KeyBadge needsApiKey={operation.needsApiKey} />
          </div>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-5">
          {operation.description ? (
            <p className="text-sm leading-relaxed">
              <DocText text={operation.description} />
            </p>
          ) : null}
          {operation.needsApiKey && operation.apiKeyHeader ? (
            <p className="text-sm">
              Send your API key in the <code className="font-mono">{operation.apiKeyHeader}</code> header.
            </p>
          ) : null}
          {operation.parameters.length > 0 ? (
            <DocSection title="Parameters">
              <ParametersTable parameters={operation.parameters} />
            </DocSection>
          ) : null}
          {operation.requestBody ? (
            <DocSection title={operation.requestBody.required ? "Request body (required)" : "Request body"}>
              <RequestBodyFields
                schema={operation.requestBody.schema}
                contentType={operation.requestBody.contentType}
              />
            </DocSection>
          ) : null}
          {operation.responses.length > 0 ? (
            <DocSection title="Responses">
              <ResponsesList responses={operation.responses} />
            </DocSection>
          ) : null}
          <DocSection title="Example">
            <CurlExampleBlock
              command={buildCurlExample(operation)}
              label={`curl example for ${operation.id}`}
            />
          </DocSection>
        </CardContent>
      </Card>
    </article>
  );
}
