import type { OverlapPartner, OverlapRun } from "@shared/overlap";
import { useQueries, useQueryClient } from "@tanstack/react-query";
import { Users } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { ApiError, apiRequest, errorMessage } from "@/lib/api-client";
import { paths } from "@/lib/paths";
import { invalidateApiPaths } from "@/lib/query-client";
import { OVERLAP_PATH, partnerOverlapPath, useAwaitingRuns } from "./api";
import { overlapErrorMessage } from "./overlap-errors";
import { OVERLAP_SETTINGS_TAB } from "./overlap-links";

/** A turn cut short by the network, the server's trouble or a change of sharing is tried again, this often at most. */
const TURN_TRIES = 3;
const TURN_RETRY_MS = 30_000;

/**
 * What may pass by itself: a lost connection (fetch's TypeError), a 5xx or a 429, and a 409 (the
 * run changed under the step: sharing changed, so the step is taken again at the level now in
 * force, unless the run is no longer this side's to take).
 */
function mayPass(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500 || error.status === 429 || error.status === 409;
  return error instanceof TypeError;
}

/**
 * CONTRACT §11: the other side's browser takes part the next time an admin there opens Buddy.
 * Runs this side started are finished at once; a partner's first run asks for consent, once per
 * partner. The protocol's code (libsodium) loads only when there is a turn to take.
 */
export function OverlapParticipant({
  organizationId,
  retryMs = TURN_RETRY_MS,
}: {
  organizationId: string;
  retryMs?: number;
}) {
  const client = useQueryClient();
  const awaiting = useAwaitingRuns(true);
  const runs = awaiting.data?.runs ?? [];
  const partnerIds = [...new Set(runs.filter((run) => !run.started).map((run) => run.partner.id))];
  const partners = useQueries({
    queries: partnerIds.map((id) => ({ queryKey: [partnerOverlapPath(id)], retry: false })),
  });
  const consented = new Set(
    partners.flatMap((query) => {
      const data = query.data as OverlapPartner | undefined;
      return data?.consented ? [data.partner.id] : [];
    }),
  );
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const taken = useRef(new Set<string>());
  const tries = useRef(new Map<string, number>());
  const retries = useRef(new Set<ReturnType<typeof setTimeout>>());
  const [, wake] = useState(0);

  useEffect(() => {
    const timers = retries.current;
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, []);

  const ready = runs.filter(
    (run) => (run.started || consented.has(run.partner.id)) && !taken.current.has(run.id),
  );
  const asking = runs.filter(
    (run) =>
      !run.started &&
      partners.every((q) => !q.isPending) &&
      !consented.has(run.partner.id) &&
      !dismissed.has(run.partner.id),
  );

  useEffect(() => {
    const next = ready[0];
    if (!next || busy) return;
    taken.current.add(next.id);
    const tried = (tries.current.get(next.id) ?? 0) + 1;
    tries.current.set(next.id, tried);
    setBusy(next.partner.name);
    import("./overlap-engine")
      .then((engine) => engine.takeTurn(organizationId, next.id))
      .then(() => setProblem(null))
      .catch((error: unknown) => {
        setProblem(overlapErrorMessage(error, "Failed to compare account lists"));
        if (!mayPass(error) || tried >= TURN_TRIES) return;
        const timer = setTimeout(() => {
          retries.current.delete(timer);
          taken.current.delete(next.id);
          wake((n) => n + 1);
        }, retryMs);
        retries.current.add(timer);
      })
      .finally(() => {
        setBusy(null);
        void invalidateApiPaths(client, OVERLAP_PATH);
      });
  }, [ready, busy, client, organizationId, retryMs]);

  async function answer(run: OverlapRun, choice: "consent" | "hidden") {
    try {
      await apiRequest(partnerOverlapPath(run.partner.id), {
        method: "PUT",
        body: choice === "consent" ? { consent: true } : { level: "hidden" },
      });
    } catch (error) {
      setProblem(errorMessage(error, "Failed to update sharing"));
    }
    await invalidateApiPaths(client, OVERLAP_PATH);
  }

  const first = asking[0];
  if (!busy && !problem && !first) return null;
  return (
    <div
      role="status"
      data-testid="overlap-participant"
      className="mb-6 grid gap-3 rounded-md border border-sky-200 bg-sky-50 px-4 py-3 text-sky-950 text-sm"
    >
      {busy ? (
        <p className="flex items-center gap-2">
          <Users className="size-4 shrink-0" aria-hidden="true" />
          Comparing account lists with {busy}… Your lists stay in this browser.
        </p>
      ) : null}
      {problem ? (
        <p>
          {problem}{" "}
          <Link
            to={`${paths.settings}?tab=${OVERLAP_SETTINGS_TAB}`}
            className="font-medium underline underline-offset-4"
          >
            Account overlap settings
          </Link>
        </p>
      ) : null}
      {first && !busy ? (
        <>
          <p className="flex items-start gap-2">
            <Users className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              {first.partner.name} asks to compare its {first.partnerPopulation} with your {first.population}.
              Each browser blinds its own list: Buddy never sees either, and you both learn only how many
              accounts you share.
            </span>
          </p>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => void answer(first, "consent")}>
              Take part
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={() => setDismissed((current) => new Set(current).add(first.partner.id))}
            >
              Not now
            </Button>
            <Button size="sm" variant="ghost" onClick={() => void answer(first, "hidden")}>
              Never with {first.partner.name}
            </Button>
          </div>
        </>
      ) : null}
    </div>
  );
}
