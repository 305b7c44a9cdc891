import { balanceSentence } from "@shared/reciprocity";
import type { PartnerLedger } from "@shared/reciprocity-schemas";
import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { LoadError } from "@/features/overview/load-error";
import { AdWeightMeter } from "@/features/overview/partners/ad-weight-meter";
import { BUDDY_LEDGER_DAYS, PARTNERS_LOAD_ERROR, usePartnersLedger } from "@/features/overview/partners/api";
import { BalanceValue, SIDE_ICONS } from "@/features/overview/partners/partner-cells";
import {
  adWeightBasis,
  adWeightSentence,
  countOf,
  partnerEntry,
} from "@/features/overview/partners/partner-figures";

type Side = "sent" | "received";
type Row = { id: string; label: string; side?: Side; value: (entry: PartnerLedger) => ReactNode };

/**
 * Clicks and leads both ways and the balance. No revenue: the Buddy page's revenue card shows the
 * pair's, once per page, with its sales.
 */
const ROWS: Row[] = [
  { id: "clicks-sent", label: "Clicks sent", side: "sent", value: (e) => countOf(e.clicks.sent, "click") },
  {
    id: "clicks-received",
    label: "Clicks received",
    side: "received",
    value: (e) => countOf(e.clicks.received, "click"),
  },
  { id: "leads-sent", label: "Leads sent", side: "sent", value: (e) => countOf(e.leads.sent, "lead") },
  {
    id: "leads-received",
    label: "Leads received",
    side: "received",
    value: (e) => countOf(e.leads.received, "lead"),
  },
  { id: "balance", label: "Balance", value: (e) => <BalanceValue balance={e.balance} /> },
];

/** What a ledger's figures are, for the data attributes the browser tests read. */
function dataValue(entry: PartnerLedger, id: string): number | undefined {
  const [kind, side] = id.split("-") as [string, Side | undefined];
  if (kind === "balance") return entry.balance;
  if ((kind === "clicks" || kind === "leads") && side) return entry[kind][side];
  return undefined;
}

function LedgerTable({ entries }: { entries: { days: number; entry: PartnerLedger }[] }) {
  return (
    <table data-testid="partner-ledger-table" className="w-full self-start text-sm">
      <thead>
        <tr className="border-b">
          <th scope="col" className="py-2 pr-2 text-left font-medium">
            <span className="sr-only">Figure</span>
          </th>
          {entries.map(({ days }) => (
            <th key={days} scope="col" className="whitespace-nowrap py-2 pl-2 text-right font-medium">
              {days} days
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {ROWS.map((row) => {
          const Icon = row.side ? SIDE_ICONS[row.side] : null;
          return (
            <tr key={row.id} data-row={row.id} className="border-b last:border-0">
              <th scope="row" className="py-2 pr-2 text-left font-normal text-muted-foreground">
                {row.label}
                {/* Inline, so a wrapped label keeps its icon after its last word. */}
                {Icon ? <Icon aria-hidden="true" className="ml-1 inline size-3.5 align-[-0.125em]" /> : null}
              </th>
              {entries.map(({ days, entry }) => (
                <td
                  key={days}
                  data-days={days}
                  data-value={dataValue(entry, row.id)}
                  className="py-2 pl-2 text-right align-top tabular-nums"
                >
                  {row.value(entry)}
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * CONTRACT §10 on a Buddy's page: the pair's ledger over 30 days (the ad weight's window) and 90,
 * each window's balance in words, and the weight the Ads API gives the partner's ads today.
 */
export function PartnerLedgerCard({ partner }: { partner: { id: string; name: string } }) {
  const [shortWindow, longWindow] = BUDDY_LEDGER_DAYS;
  const short = usePartnersLedger(shortWindow);
  const long = usePartnersLedger(longWindow);
  const failed = [short, long].filter((query) => query.isError);

  const body = () => {
    if (failed.length > 0) {
      return (
        <LoadError
          title={PARTNERS_LOAD_ERROR}
          error={failed[0]?.error}
          onRetry={() => {
            for (const query of failed) void query.refetch();
          }}
        />
      );
    }
    if (!short.data || !long.data)
      return <Skeleton role="status" aria-label="Loading" className="h-64 w-full" />;
    const entries = [
      { days: shortWindow, entry: partnerEntry(short.data.partners, partner) },
      { days: longWindow, entry: partnerEntry(long.data.partners, partner) },
    ];
    const weight = entries[0]?.entry.adWeight ?? 1;
    // Side by side when the card is wide: the words and the weight, then the figures.
    return (
      <div className="grid gap-5 @2xl:grid-cols-[minmax(0,1fr)_minmax(0,26rem)] @2xl:gap-8">
        <div className="grid content-start gap-4">
          <ul data-testid="balance-sentences" className="grid gap-1.5 text-sm">
            {entries.map(({ days, entry }) => (
              <li key={days} data-days={days}>
                <span className="text-muted-foreground">Last {days} days: </span>
                {balanceSentence(partner.name, entry.balance)}.
              </li>
            ))}
          </ul>
          <div data-testid="partner-ad-weight" className="grid gap-2 rounded-lg bg-muted/50 p-3 text-sm">
            <span className="flex items-center justify-between gap-3">
              <span className="font-medium">Ad weight</span>
              <AdWeightMeter weight={weight} />
            </span>
            <p data-testid="ad-weight-sentence">{adWeightSentence(partner.name, weight)}.</p>
            <p className="text-muted-foreground text-xs">{adWeightBasis(shortWindow)}</p>
          </div>
        </div>
        <LedgerTable entries={entries} />
      </div>
    );
  };

  return (
    <Card data-testid="partner-ledger-card" className="gap-4">
      <CardHeader>
        <CardTitle>
          <h2>Give and take with {partner.name}</h2>
        </CardTitle>
        <CardDescription>
          The clicks and leads you sent {partner.name} and those you received from it
        </CardDescription>
      </CardHeader>
      <CardContent className="@container grid gap-4">{body()}</CardContent>
    </Card>
  );
}
