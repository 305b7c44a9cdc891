import { OVERLAP_MESSAGES, OVERLAP_POPULATION_LABELS, type OverlapRun } from "@shared/overlap";

const STATUS_LABELS: Record<OverlapRun["status"], string> = {
  waiting: "Waiting for the partner",
  answered: "Waiting for the starting side",
  completed: "Completed",
  expired: "Expired",
  cancelled: "Cancelled",
};

function resultOf(run: OverlapRun): string {
  if (run.status !== "completed") return "—";
  return run.count === null ? OVERLAP_MESSAGES.fewerThan : run.count.toLocaleString("en-US");
}

/** The runs of this organization, newest first, as a list that reads on a phone too. */
export function OverlapRunsTable({ runs }: { runs: OverlapRun[] }) {
  if (runs.length === 0) return <p className="text-muted-foreground text-sm">No runs yet.</p>;
  return (
    <ul className="grid gap-2" data-testid="overlap-runs">
      {runs.map((run) => (
        <li
          key={run.id}
          className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-b pb-2 text-sm"
        >
          <span>
            {run.partner.name}: your {OVERLAP_POPULATION_LABELS[run.population].toLowerCase()} × their{" "}
            {OVERLAP_POPULATION_LABELS[run.partnerPopulation].toLowerCase()}
          </span>
          <span className="text-muted-foreground">
            {STATUS_LABELS[run.status]} · {new Date(run.createdAt).toLocaleDateString("en-US")}
          </span>
          <span className="font-medium tabular-nums">{resultOf(run)}</span>
        </li>
      ))}
    </ul>
  );
}
