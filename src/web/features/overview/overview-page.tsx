import { PageHeader } from "@/components/layout/page-header";
import { DailyChartCard } from "@/features/overview/daily-chart-card";
import { ExportCsvButton } from "@/features/overview/export-csv-button";
import { NextStepsCard } from "@/features/overview/next-steps/next-steps-card";
import { OrganizationProfileCard } from "@/features/overview/organization-profile-card";
import { PartnersCard } from "@/features/overview/partners/partners-card";
import { RecentActivityCard } from "@/features/overview/recent-activity-card";
import { RevenueCard } from "@/features/overview/revenue-card";
import { StatCards } from "@/features/overview/stat-cards";
import { useAfterFirstPaint } from "@/hooks/use-after-first-paint";

/**
 * SPEC §2 Overview (/dashboard). Each part loads and fails on its own, so one slow or broken
 * source never blanks the whole page. The parts below the key figures render once those have
 * painted: on a phone they are below the first view, and rendering them with it made one long task.
 */
export function OverviewPage() {
  const rest = useAfterFirstPaint();
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader title="Overview">
        <ExportCsvButton />
      </PageHeader>
      <NextStepsCard />
      <StatCards />
      <RevenueCard />
      {rest ? (
        <>
          <DailyChartCard />
          <PartnersCard />
          <div className="grid gap-6 lg:grid-cols-2">
            <OrganizationProfileCard />
            <RecentActivityCard />
          </div>
        </>
      ) : null}
    </div>
  );
}
