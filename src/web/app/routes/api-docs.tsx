import { ComingSoonPage } from "@/components/coming-soon-page";

export function ApiDocsRoute() {
  return <ComingSoonPage title="API Docs" />;
}
