import { balanceSentence } from "@shared/reciprocity";
import type { PartnerLedger } from "@shared/reciprocity-schemas";
import { ArrowDown, ArrowUp, ArrowUpDown, type LucideIcon } from "lucide-react";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { AdWeightMeter } from "@/features/overview/partners/ad-weight-meter";
import {
  BalanceValue,
  ClicksAndLeads,
  PartnerName,
  RevenueAmounts,
  SIDE_ICONS,
} from "@/features/overview/partners/partner-cells";
import type { PartnerSort, PartnerSortKey } from "@/features/overview/partners/partner-figures";

export type PartnerListProps = {
  /** Already sorted. */
  partners: readonly PartnerLedger[];
  sort: PartnerSort;
  /** Organization id → the caller's active Buddy relationship with it, for the name's link. */
  buddyLinks: ReadonlyMap<string, string>;
};

/** The columns of the wide layout; the narrow one offers the same sort keys in a select. */
export const PARTNER_COLUMNS: { key: PartnerSortKey | "revenue"; label: string; icon?: LucideIcon }[] = [
  { key: "name", label: "Partner" },
  { key: "sent", label: "Sent", icon: SIDE_ICONS.sent },
  { key: "received", label: "Received", icon: SIDE_ICONS.received },
  { key: "balance", label: "Balance" },
  { key: "revenue", label: "Revenue" },
  { key: "adWeight", label: "Ad weight" },
];

const SORT_ICONS = { ascending: ArrowUp, descending: ArrowDown } as const;

function SortableHead({
  column,
  sort,
  onSortBy,
}: {
  column: (typeof PARTNER_COLUMNS)[number];
  sort: PartnerSort;
  onSortBy: (key: PartnerSortKey) => void;
}) {
  const { key, label, icon: Icon } = column;
  const heading = (
    <span className="inline-flex items-center gap-1">
      {label}
      {Icon ? <Icon aria-hidden="true" className="size-3.5 text-muted-foreground" /> : null}
    </span>
  );
  if (key === "revenue") {
    // Not sortable: amounts in different currencies are never added or compared (CONTRACT §8).
    return <TableHead className="px-3">{heading}</TableHead>;
  }
  const sorted = sort?.key === key ? sort.direction : undefined;
  const SortIcon = sorted ? SORT_ICONS[sorted] : ArrowUpDown;
  return (
    <TableHead aria-sort={sorted} className="px-1">
      <button
        type="button"
        onClick={() => onSortBy(key)}
        className="inline-flex h-8 items-center gap-1.5 rounded-md px-2 outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        {heading}
        <SortIcon aria-hidden="true" className={sorted ? "size-3.5" : "size-3.5 text-muted-foreground/60"} />
      </button>
    </TableHead>
  );
}

/** The partners as a table, for a card wide enough for six columns; a header's click sorts by it. */
export function PartnersTable({
  partners,
  sort,
  onSortBy,
  buddyLinks,
}: PartnerListProps & { onSortBy: (key: PartnerSortKey) => void }) {
  return (
    <Table data-testid="partners-table">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {PARTNER_COLUMNS.map((column) => (
            <SortableHead key={column.key} column={column} sort={sort} onSortBy={onSortBy} />
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {partners.map((partner) => (
          <TableRow
            key={partner.organizationId}
            data-testid="partner-row"
            data-partner-id={partner.organizationId}
          >
            <TableCell className="max-w-56 px-3 py-3">
              <span className="block truncate" title={partner.name}>
                <PartnerName name={partner.name} relationshipId={buddyLinks.get(partner.organizationId)} />
              </span>
            </TableCell>
            <TableCell className="px-3 py-3">
              <ClicksAndLeads side="sent" clicks={partner.clicks.sent} leads={partner.leads.sent} />
            </TableCell>
            <TableCell className="px-3 py-3">
              <ClicksAndLeads
                side="received"
                clicks={partner.clicks.received}
                leads={partner.leads.received}
              />
            </TableCell>
            <TableCell className="px-3 py-3" title={balanceSentence(partner.name, partner.balance)}>
              <BalanceValue balance={partner.balance} />
            </TableCell>
            {/* Each amount as wide as the widest usual one, so a currency's amounts line up under the other's. */}
            <TableCell className="px-3 py-3 [&_[data-side]]:min-w-24">
              <RevenueAmounts revenue={partner.revenue} />
            </TableCell>
            <TableCell className="px-3 py-3">
              <AdWeightMeter weight={partner.adWeight} partner={partner.name} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
