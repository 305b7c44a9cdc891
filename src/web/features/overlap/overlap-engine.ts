import type { OverlapPopulation, OverlapRun, OverlapRunWork, OverlapSettings } from "@shared/overlap";
import {
  answerRun,
  completeRun,
  OverlapProtocolError,
  type OverlapSodium,
  startRun,
} from "@shared/overlap-protocol";
import { apiRequest } from "@/lib/api-client";
import { OverlapStepError } from "./overlap-errors";
import { readList, readRun, saveList, saveRun } from "./overlap-store";

/**
 * The browser's side of a run (CONTRACT §11): libsodium is loaded here, and this module is only
 * imported on the screens that run the protocol, so no other page downloads it.
 */
let loading: Promise<OverlapSodium> | undefined;
export function loadSodium(): Promise<OverlapSodium> {
  loading ??= import("libsodium-wrappers-sumo").then(async (module) => {
    const sodium = (module.default ?? module) as OverlapSodium;
    await sodium.ready;
    return sodium;
  });
  return loading;
}

const runPath = (id: string) => `/api/overlap/runs/${encodeURIComponent(id)}`;

/** Keeps a list in this browser and tells Buddy its size (never its domains). */
export async function keepList(organizationId: string, population: OverlapPopulation, domains: string[]) {
  const settings = await apiRequest<OverlapSettings>(`/api/overlap/populations/${population}`, {
    method: "PUT",
    body: { domainCount: domains.length },
  });
  await saveList(organizationId, population, domains);
  return settings;
}

async function listOf(organizationId: string, population: OverlapPopulation) {
  const list = await readList(organizationId, population);
  if (!list) {
    throw new OverlapStepError(
      `Your ${population} list is not in this browser: import it in Settings → Account overlap`,
    );
  }
  return list.domains;
}

/** Step 1: blind this side's list with a fresh scalar, send the points, keep the scalar here. */
export async function startOverlapRun(
  organizationId: string,
  input: { partnerId: string; population: OverlapPopulation; partnerPopulation: OverlapPopulation },
): Promise<OverlapRun> {
  const [sodium, domains] = await Promise.all([loadSodium(), listOf(organizationId, input.population)]);
  const started = startRun(sodium, domains);
  const run = await apiRequest<OverlapRun>("/api/overlap/runs", {
    method: "POST",
    body: { ...input, points: started.points },
  });
  await saveRun({ runId: run.id, organizationId, scalar: started.scalar, order: started.order });
  return run;
}

/** Steps 2 and 3 for one run whose turn is this side's; answers the run as it stands after. */
export async function takeTurn(organizationId: string, runId: string): Promise<OverlapRun> {
  try {
    return await step(organizationId, runId);
  } catch (error) {
    if (error instanceof OverlapProtocolError) throw new OverlapStepError(error.message);
    throw error;
  }
}

async function step(organizationId: string, runId: string): Promise<OverlapRun> {
  const [sodium, work] = await Promise.all([loadSodium(), apiRequest<OverlapRunWork>(runPath(runId))]);
  if (!work.started && work.status === "waiting") {
    const answered = answerRun(
      sodium,
      await listOf(organizationId, work.population),
      work.points ?? [],
      work.stepLevel,
    );
    await saveRun({ runId, organizationId, scalar: null, order: answered.order });
    return apiRequest<OverlapRun>(`${runPath(runId)}/answer`, {
      method: "POST",
      body: { doubled: answered.doubled, points: answered.points, level: work.stepLevel },
    });
  }
  if (work.started && work.status === "answered") {
    const stored = await readRun(runId);
    if (!stored?.scalar)
      throw new OverlapStepError(
        "This run was started in another browser: import its export here to finish it",
      );
    const completed = completeRun(
      sodium,
      stored.scalar,
      { doubled: work.doubled ?? [], partnerPoints: work.partnerPoints ?? [] },
      work.stepLevel,
    );
    const run = await apiRequest<OverlapRun>(`${runPath(runId)}/complete`, {
      method: "POST",
      body: { doubled: completed.doubled, level: work.stepLevel },
    });
    // The scalar has done its work: it goes, the order stays to read the shared accounts.
    await saveRun({ ...stored, scalar: null });
    return run;
  }
  return work;
}

/** Overlaps mode: this side's own shared accounts, read through the order it sent them in. */
export async function sharedAccounts(run: OverlapRun): Promise<string[] | null> {
  if (!run.matches) return null;
  const stored = await readRun(run.id);
  if (!stored) return null;
  return run.matches
    .map((position) => stored.order[position])
    .filter((domain): domain is string => Boolean(domain))
    .sort();
}
