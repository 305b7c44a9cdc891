import { ApiDocsPage } from "@/features/api-docs/api-docs-page";

export function ApiDocsRoute() {
  return <ApiDocsPage />;
}
