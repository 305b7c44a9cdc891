import {
  OVERLAP_LEVEL_DESCRIPTIONS,
  OVERLAP_LEVEL_LABELS,
  OVERLAP_LEVELS,
  OVERLAP_POPULATION_LABELS,
  OVERLAP_POPULATIONS,
  type OverlapLevel,
  type OverlapPopulation,
  type OverlapRun,
  overlapSentence,
} from "@shared/overlap";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { paths } from "@/lib/paths";
import { saveFile } from "@/lib/save-file";
import { usePartnerOverlap, useStartComparison, useUpdatePartnerOverlap } from "./api";
import { OVERLAP_SETTINGS_TAB } from "./overlap-links";
import { useLocalLists } from "./overlap-panel";

/** Whose step a run in flight waits for, from this side. */
function waitingFor(run: OverlapRun, partnerName: string): string {
  const partnersTurn = run.started === (run.status === "waiting");
  return partnersTurn
    ? `waiting for ${partnerName}`
    : "your browser takes its turn when an admin opens Buddy";
}

const capitalised = (sentence: string) => sentence.charAt(0).toUpperCase() + sentence.slice(1);

/** Overlaps mode: this side's own shared accounts, listed and downloadable as CSV. */
function SharedAccounts({ run, partnerName }: { run: OverlapRun; partnerName: string }) {
  const accounts = useQuery({
    queryKey: ["overlap-shared-accounts", run.id],
    queryFn: async () => (await import("./overlap-engine")).sharedAccounts(run),
  });
  if (!accounts.data) return null;
  const csv = `domain\n${accounts.data.join("\n")}\n`;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer font-medium">
        Your {run.population} that are {partnerName} {run.partnerPopulation} ({accounts.data.length})
      </summary>
      <ul className="mt-2 grid max-h-48 gap-1 overflow-y-auto">
        {accounts.data.map((domain) => (
          <li key={domain}>{domain}</li>
        ))}
      </ul>
      <Button
        size="sm"
        variant="outline"
        className="mt-2"
        onClick={() =>
          saveFile(
            new Blob([csv], { type: "text/csv" }),
            `shared-${run.population}-${partnerName}.csv`.replace(/\s+/g, "-"),
          )
        }
      >
        Download CSV
      </Button>
    </details>
  );
}

/**
 * A Buddy's page (CONTRACT §11): "38 of your customers are Quillmail customers · …" with the date
 * of the run, the sharing level, and a new comparison. Shown to admins; hidden when the pair may
 * not compare (a blocked pair is not found, like an unknown one).
 */
export function PartnerOverlapCard({
  organizationId,
  partnerId,
}: {
  organizationId: string;
  partnerId: string;
}) {
  const overlap = usePartnerOverlap(partnerId);
  const update = useUpdatePartnerOverlap(partnerId);
  const local = useLocalLists(organizationId);
  const start = useStartComparison(organizationId);
  const levelId = useId();
  const [mine, setMine] = useState<OverlapPopulation>("customers");
  const [theirs, setTheirs] = useState<OverlapPopulation>("customers");
  if (!overlap.data) return null;
  const { partner, results, pending, partnerPopulations, nextRunAt, level, effectiveLevel } = overlap.data;
  const next = nextRunAt[`${mine}:${theirs}`];
  const held = local.data?.has(mine) ?? false;
  const latest = results[0];

  return (
    <Card data-testid="partner-overlap">
      <CardHeader>
        <CardTitle>Account overlap</CardTitle>
        <CardDescription>
          Accounts you share with {partner.name}, found without either list leaving its browser.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {results.length > 0 ? (
          <div className="grid gap-1">
            <p className="font-medium" data-testid="overlap-sentence">
              {results.map((run) => capitalised(overlapSentence(run, partner.name))).join(" · ")}
            </p>
            {latest ? (
              <p className="text-muted-foreground text-sm">
                Compared on {new Date(latest.completedAt ?? latest.createdAt).toLocaleDateString("en-US")}
              </p>
            ) : null}
            {results
              .filter((run) => run.matches)
              .map((run) => (
                <SharedAccounts key={run.id} run={run} partnerName={partner.name} />
              ))}
          </div>
        ) : (
          <p className="text-muted-foreground text-sm">No comparison with {partner.name} yet.</p>
        )}
        {pending.map((run) => (
          <p key={run.id} className="text-sm" role="status">
            Comparing your {run.population} with their {run.partnerPopulation}:{" "}
            {waitingFor(run, partner.name)}.
          </p>
        ))}

        <div className="grid gap-2">
          <Label htmlFor={levelId}>Your sharing with {partner.name}</Label>
          <NativeSelect
            id={levelId}
            value={level}
            disabled={update.isPending}
            onChange={(event) => update.mutate({ level: event.target.value as OverlapLevel })}
          >
            {OVERLAP_LEVELS.map((value) => (
              <option key={value} value={value}>
                {OVERLAP_LEVEL_LABELS[value]}
              </option>
            ))}
          </NativeSelect>
          <p className="text-muted-foreground text-sm">
            {OVERLAP_LEVEL_DESCRIPTIONS[level]}
            {effectiveLevel !== level
              ? ` Runs use ${OVERLAP_LEVEL_LABELS[effectiveLevel]}, the lower of both sides.`
              : ""}
          </p>
        </div>

        {effectiveLevel === "hidden" ? null : (
          <div className="flex flex-wrap items-end gap-2">
            <NativeSelect
              aria-label="Your list"
              value={mine}
              onChange={(e) => setMine(e.target.value as OverlapPopulation)}
            >
              {OVERLAP_POPULATIONS.map((value) => (
                <option key={value} value={value}>
                  Your {OVERLAP_POPULATION_LABELS[value].toLowerCase()}
                </option>
              ))}
            </NativeSelect>
            <NativeSelect
              aria-label={`${partner.name}'s list`}
              value={theirs}
              onChange={(e) => setTheirs(e.target.value as OverlapPopulation)}
            >
              {OVERLAP_POPULATIONS.map((value) => (
                <option key={value} value={value} disabled={!partnerPopulations.includes(value)}>
                  Their {OVERLAP_POPULATION_LABELS[value].toLowerCase()}
                </option>
              ))}
            </NativeSelect>
            <Button
              disabled={start.isPending || !held || Boolean(next) || !partnerPopulations.includes(theirs)}
              onClick={() =>
                start.mutate({
                  partnerId,
                  partnerName: partner.name,
                  population: mine,
                  partnerPopulation: theirs,
                })
              }
            >
              Compare lists
            </Button>
          </div>
        )}
        {effectiveLevel === "hidden" ? null : !held ? (
          <p className="text-muted-foreground text-sm">
            Add your {mine} in{" "}
            <Link
              to={`${paths.settings}?tab=${OVERLAP_SETTINGS_TAB}`}
              className="underline underline-offset-4"
            >
              Settings → Account overlap
            </Link>{" "}
            to compare them.
          </p>
        ) : !partnerPopulations.includes(theirs) ? (
          <p className="text-muted-foreground text-sm">
            {partner.name} has no {theirs} list on Buddy yet.
          </p>
        ) : next ? (
          <p className="text-muted-foreground text-sm">
            These lists were compared in the last 24 hours: next possible{" "}
            {new Date(next).toLocaleString("en-US")}.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
