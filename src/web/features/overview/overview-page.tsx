import { PageHeader } from "@/components/layout/page-header";
import { DailyChartCard } from "@/features/overview/daily-chart-card";
import { ExportCsvDialog } from "@/features/overview/export-csv-dialog";
import { NextStepsCard } from "@/features/overview/next-steps/next-steps-card";
import { OrganizationProfileCard } from "@/features/overview/organization-profile-card";
import { PartnersCard } from "@/features/overview/partners/partners-card";
import { RecentActivityCard } from "@/features/overview/recent-activity-card";
import { RevenueCard } from "@/features/overview/revenue-card";
import { StatCards } from "@/features/overview/stat-cards";

/**
 * SPEC §2 Overview (/dashboard). Each part loads and fails on its own, so one slow or broken
 * source never blanks the whole page.
 */
export function OverviewPage() {
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader title="Overview">
        <ExportCsvDialog />
      </PageHeader>
      <NextStepsCard />
      <StatCards />
      <RevenueCard />
      <DailyChartCard />
      <PartnersCard />
      <div className="grid gap-6 lg:grid-cols-2">
        <OrganizationProfileCard />
        <RecentActivityCard />
      </div>
    </div>
  );
}
