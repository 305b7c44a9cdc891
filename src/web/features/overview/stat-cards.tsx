import type { UseQueryResult } from "@tanstack/react-query";
import { ArrowDownLeft, ArrowUpRight, Handshake, Inbox, Send, ShieldBan } from "lucide-react";
import { useClickTotals, useLeadTotals, useRelationshipList } from "@/features/overview/api";
import { countActiveRelationships } from "@/features/overview/count-relationships";
import { LoadError } from "@/features/overview/load-error";
import { StatCard, type StatCardProps } from "@/features/overview/stat-card";
import { UncountedClicks } from "@/features/overview/uncounted-clicks";
import { paths } from "@/lib/paths";

/** Maps a query to a card's status and number without repeating the three-way check six times. */
function fromQuery<T>(query: UseQueryResult<T>, pick: (data: T) => number) {
  return {
    status: query.status,
    value: query.data === undefined ? undefined : pick(query.data),
  } satisfies Pick<StatCardProps, "status" | "value">;
}

/** SPEC §2 Overview: six numbers, each linking to tools, marketing or competitors. */
export function StatCards() {
  const relationships = useRelationshipList();
  const clicks = useClickTotals();
  const leads = useLeadTotals();

  const cards: StatCardProps[] = [
    {
      id: "buddies",
      label: "Buddies",
      description: "Active complementary tools",
      icon: Handshake,
      href: paths.tools,
      ...fromQuery(relationships, (list) => countActiveRelationships(list).buddies),
    },
    {
      id: "clicks-sent",
      label: "Clicks Sent",
      description: "Total outbound clicks",
      icon: ArrowUpRight,
      href: paths.marketing,
      ...fromQuery(clicks, (totals) => totals.sent),
      details: <UncountedClicks direction="sent" />,
    },
    {
      id: "clicks-received",
      label: "Clicks Received",
      description: "Total inbound clicks",
      icon: ArrowDownLeft,
      href: paths.marketing,
      ...fromQuery(clicks, (totals) => totals.received),
      details: <UncountedClicks direction="received" />,
    },
    {
      id: "leads-sent",
      label: "Leads Sent",
      description: "Leads shared with partners",
      icon: Send,
      href: paths.marketing,
      ...fromQuery(leads, (totals) => totals.sent),
    },
    {
      id: "leads-received",
      label: "Leads Received",
      description: "Leads from partners",
      icon: Inbox,
      href: paths.marketing,
      ...fromQuery(leads, (totals) => totals.received),
    },
    {
      id: "competitors",
      label: "Competitors",
      description: "Companies on your block list",
      icon: ShieldBan,
      href: paths.competitors,
      ...fromQuery(relationships, (list) => countActiveRelationships(list).competitors),
    },
  ];

  // SPEC §8 load errors, one per failed source (clicks feed two cards but fail once).
  const failures = [
    { title: "Failed to fetch relationships", query: relationships },
    { title: "Failed to fetch clicks metrics", query: clicks },
    { title: "Failed to fetch leads metrics", query: leads },
  ].filter(({ query }) => query.isError);

  return (
    <section aria-label="Key numbers" className="grid gap-3">
      {failures.map(({ title, query }) => (
        <LoadError key={title} title={title} error={query.error} onRetry={() => query.refetch()} />
      ))}
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
        {cards.map((card) => (
          <StatCard key={card.id} {...card} />
        ))}
      </div>
    </section>
  );
}
