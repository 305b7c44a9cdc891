import { balanceSentence } from "@shared/reciprocity";
import { ArrowDown, ArrowUp } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Button } from "@/components/ui/button";
import { NativeSelect } from "@/components/ui/native-select";
import { AdWeightMeter } from "@/features/overview/partners/ad-weight-meter";
import {
  BalanceValue,
  ClicksAndLeads,
  PartnerName,
  RevenueAmounts,
  SIDE_ICONS,
} from "@/features/overview/partners/partner-cells";
import {
  adWeightSentence,
  nextSort,
  type PartnerSort,
  type PartnerSortKey,
} from "@/features/overview/partners/partner-figures";
import { PARTNER_COLUMNS, type PartnerListProps } from "@/features/overview/partners/partners-table";

/** The select's value for the server's order (most clicks either way first). */
const MOST_TRAFFIC = "traffic";
const SORT_OPTIONS = [
  { value: MOST_TRAFFIC, label: "Most traffic" },
  ...PARTNER_COLUMNS.filter((column) => column.key !== "revenue").map((column) => ({
    value: column.key,
    label: column.label,
  })),
];

function SortControls({ sort, onSort }: { sort: PartnerSort; onSort: (sort: PartnerSort) => void }) {
  const labelId = useId();
  const direction = sort?.direction ?? "descending";
  const DirectionIcon = direction === "ascending" ? ArrowUp : ArrowDown;
  return (
    <div className="flex items-center gap-2">
      <span id={labelId} className="shrink-0 text-muted-foreground text-sm">
        Sort by
      </span>
      <NativeSelect
        aria-labelledby={labelId}
        className="min-w-36 [&_select]:h-8"
        value={sort?.key ?? MOST_TRAFFIC}
        onChange={(event) => {
          const value = event.target.value;
          onSort(value === MOST_TRAFFIC ? null : nextSort(null, value as PartnerSortKey));
        }}
      >
        {SORT_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
      <Button
        type="button"
        variant="outline"
        size="icon"
        className="size-8"
        disabled={sort === null}
        aria-label={
          direction === "ascending" ? "Ascending, click for descending" : "Descending, click for ascending"
        }
        onClick={() => sort && onSort(nextSort(sort, sort.key))}
      >
        <DirectionIcon aria-hidden="true" />
      </Button>
    </div>
  );
}

function Figure({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[6rem_minmax(0,1fr)] items-baseline gap-2">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="min-w-0 text-sm">{children}</dd>
    </div>
  );
}

/** The partners as stacked cards, for a card too narrow for the table (a phone). */
export function PartnerCardList({
  partners,
  sort,
  onSort,
  buddyLinks,
}: PartnerListProps & { onSort: (sort: PartnerSort) => void }) {
  const SentIcon = SIDE_ICONS.sent;
  const ReceivedIcon = SIDE_ICONS.received;
  return (
    <div className="grid gap-3">
      <SortControls sort={sort} onSort={onSort} />
      <ul data-testid="partner-cards" className="grid gap-3 @lg:grid-cols-2">
        {partners.map((partner) => (
          <li
            key={partner.organizationId}
            data-testid="partner-row"
            data-partner-id={partner.organizationId}
            className="grid gap-3 rounded-lg border p-3"
          >
            <div className="grid gap-0.5">
              {/* The balance goes under a name too long to share its line, rather than cut the name. */}
              <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
                <span className="min-w-0 truncate" title={partner.name}>
                  <PartnerName name={partner.name} relationshipId={buddyLinks.get(partner.organizationId)} />
                </span>
                <BalanceValue balance={partner.balance} className="shrink-0" />
              </div>
              <p className="text-muted-foreground text-xs">
                {balanceSentence(partner.name, partner.balance)}
              </p>
            </div>
            <dl className="grid gap-2">
              <Figure
                label={
                  <span className="inline-flex items-center gap-1">
                    Sent <SentIcon aria-hidden="true" className="size-3.5" />
                  </span>
                }
              >
                <ClicksAndLeads side="sent" clicks={partner.clicks.sent} leads={partner.leads.sent} />
              </Figure>
              <Figure
                label={
                  <span className="inline-flex items-center gap-1">
                    Received <ReceivedIcon aria-hidden="true" className="size-3.5" />
                  </span>
                }
              >
                <ClicksAndLeads
                  side="received"
                  clicks={partner.clicks.received}
                  leads={partner.leads.received}
                />
              </Figure>
              <Figure label="Revenue">
                {/* Wide enough for the usual amounts, so the lines of each currency stay in step. */}
                <span className="block [&_[data-side]]:min-w-20">
                  <RevenueAmounts revenue={partner.revenue} />
                </span>
              </Figure>
              <Figure label="Ad weight">
                {/* No hover on a phone: the weight's sentence shows under its meter. */}
                <span className="grid gap-1">
                  <AdWeightMeter weight={partner.adWeight} />
                  <span data-testid="ad-weight-sentence" className="text-muted-foreground text-xs">
                    {adWeightSentence(partner.name, partner.adWeight)}.
                  </span>
                </span>
              </Figure>
            </dl>
          </li>
        ))}
      </ul>
    </div>
  );
}
