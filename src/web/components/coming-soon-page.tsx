import { Construction } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/layout/page-header";

const COMING_SOON_TEXT = "This page is not available yet — it arrives in a coming release.";

/** Stands in for a dashboard page whose issue is not built yet, so navigation still works. */
export function ComingSoonPage({ title }: { title: string }) {
  return (
    <div className="grid gap-6">
      <PageHeader title={title} />
      <EmptyState icon={Construction} title="Coming soon" description={COMING_SOON_TEXT} />
    </div>
  );
}
