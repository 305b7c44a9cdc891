import { useMemo } from "react";
import { useSearchParams } from "react-router";
import { PageHeader } from "@/components/layout/page-header";
import { QueryError } from "@/components/query-error";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { AdOwnershipNote } from "@/features/api-docs/ad-ownership-note";
import { AD_ROTATION_TAB, AdRotationGuide } from "@/features/api-docs/ad-rotation-guide";
import { useOpenApiDocument } from "@/features/api-docs/api";
import { ApiKeyNote } from "@/features/api-docs/api-key-note";
import { DocText } from "@/features/api-docs/doc-text";
import { ExportsGuide } from "@/features/api-docs/exports-guide";
import { groupByTag, listOperations, serverUrl } from "@/features/api-docs/openapi-operations";
import type { OpenApiDocument } from "@/features/api-docs/openapi-types";
import { OperationCard } from "@/features/api-docs/operation-card";
import { SecurityLogGuide } from "@/features/api-docs/security-log-guide";
import { WebhooksGuide } from "@/features/api-docs/webhooks-guide";

const TITLE = "API Documentation";
/** No SPEC §8 text for this load; worded like the others. */
export const DOCS_LOAD_ERROR = "Failed to fetch API documentation";
/** The tab after the document's own: what Buddy sends out (webhooks) and hands over (CSV exports). */
export const GUIDES_TAB = { value: "webhooks", label: "Webhooks & Exports" } as const;

function ApiDocsSkeleton() {
  return (
    <div role="status" aria-label="Loading" className="grid gap-4">
      <Skeleton className="h-28 w-full" />
      <Skeleton className="h-9 w-72" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

function ApiDocsContent({ doc }: { doc: OpenApiDocument }) {
  const operations = useMemo(() => listOperations(doc), [doc]);
  const sections = useMemo(() => groupByTag(doc, operations), [doc, operations]);
  // `?tab=webhooks` (Settings' webhooks link) opens that tab; otherwise the document's first tag.
  const [searchParams] = useSearchParams();
  const tabs = [...sections.map((section) => section.name), GUIDES_TAB.value];
  const asked = searchParams.get("tab");
  const initialTab = asked && tabs.includes(asked) ? asked : tabs[0];

  return (
    <div className="grid min-w-0 grid-cols-1 gap-6">
      {/* In tab order, so the note lists the calls as the tabs below show them. */}
      <ApiKeyNote operations={sections.flatMap((section) => section.operations)} />
      <AdOwnershipNote />
      {/* The document's tags ('Ads API', 'Conversion Tracking'), in its order, then the guides. */}
      <Tabs defaultValue={initialTab} className="gap-4">
        <TabsList className="max-w-full overflow-x-auto">
          {sections.map((section) => (
            <TabsTrigger key={section.name} value={section.name}>
              {section.name}
            </TabsTrigger>
          ))}
          <TabsTrigger value={GUIDES_TAB.value}>{GUIDES_TAB.label}</TabsTrigger>
        </TabsList>
        {sections.map((section) => (
          <TabsContent key={section.name} value={section.name} className="grid min-w-0 grid-cols-1 gap-4">
            {section.description ? (
              <p className="text-muted-foreground text-sm">
                <DocText text={section.description} />
              </p>
            ) : null}
            {section.operations.map((operation) => (
              <OperationCard key={operation.id} operation={operation} />
            ))}
            {section.name === AD_ROTATION_TAB ? <AdRotationGuide /> : null}
          </TabsContent>
        ))}
        <TabsContent value={GUIDES_TAB.value} className="grid min-w-0 grid-cols-1 gap-4">
          <WebhooksGuide />
          <ExportsGuide baseUrl={serverUrl(doc)} />
          <SecurityLogGuide />
        </TabsContent>
      </Tabs>
    </div>
  );
}

/** SPEC §2 API Documentation, rendered from the server's published OpenAPI document. */
export function ApiDocsPage() {
  const documentQuery = useOpenApiDocument();
  const doc = documentQuery.data;

  return (
    // grid-cols-1 (minmax(0, 1fr)) lets wide tables and code scroll inside their boxes on a phone
    // instead of widening the page.
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        title={TITLE}
        description={
          doc ? (
            <>
              Base URL <code className="break-all font-mono">{serverUrl(doc)}</code>
            </>
          ) : undefined
        }
      />
      {documentQuery.isPending ? (
        <ApiDocsSkeleton />
      ) : documentQuery.isError ? (
        <QueryError
          title={DOCS_LOAD_ERROR}
          error={documentQuery.error}
          onRetry={() => documentQuery.refetch()}
        />
      ) : doc ? (
        <ApiDocsContent doc={doc} />
      ) : null}
    </div>
  );
}
