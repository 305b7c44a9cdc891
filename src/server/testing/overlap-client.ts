import type { OverlapRun, OverlapRunWork } from "@shared/overlap";
import { answerRun, completeRun, type OverlapSodium, startRun } from "@shared/overlap-protocol";
import { expect } from "vitest";
import type { TestApp } from "./app";

/**
 * One side of an overlap run driven through the API, as a browser or a company's own server does
 * it: the lists and the scalar stay here, only points go to the app.
 */
export type OverlapSide = { organizationId: string; headers: Record<string, string> };

export async function overlapCall<T>(
  t: TestApp,
  side: OverlapSide,
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  payload?: unknown,
  status = 200,
): Promise<T> {
  const response = await t.app.inject({ method, url, headers: side.headers, payload: payload as object });
  expect(response.statusCode, `${method} ${url}: ${response.body.slice(0, 300)}`).toBe(status);
  return response.json() as T;
}

export async function declarePopulation(
  t: TestApp,
  side: OverlapSide,
  population: "customers" | "prospects",
  domains: string[],
) {
  await overlapCall(t, side, "PUT", `/api/overlap/populations/${population}`, {
    domainCount: domains.length,
  });
}

/** Steps 1–3 between two sides; answers the run as each side then reads it, and A's own view. */
export async function runOverlap(
  t: TestApp,
  sodium: OverlapSodium,
  a: OverlapSide & { domains: string[]; population?: "customers" | "prospects" },
  b: OverlapSide & { domains: string[]; population?: "customers" | "prospects" },
  options: {
    /** Between B's answer and A's completion, while the server holds both sides' points. */
    afterAnswer?: (step: { runId: string; answeredPoints: string[] }) => Promise<void>;
  } = {},
) {
  const population = a.population ?? "customers";
  const partnerPopulation = b.population ?? "customers";
  // As a browser keeps a list before comparing it: both sides' lists declared, their sizes only.
  await declarePopulation(t, a, population, a.domains);
  await declarePopulation(t, b, partnerPopulation, b.domains);
  const started = startRun(sodium, a.domains);
  const run = await overlapCall<OverlapRun>(
    t,
    a,
    "POST",
    "/api/overlap/runs",
    { partnerId: b.organizationId, population, partnerPopulation, points: started.points },
    201,
  );
  const work = await overlapCall<OverlapRunWork>(t, b, "GET", `/api/overlap/runs/${run.id}`);
  const answered = answerRun(sodium, b.domains, work.points ?? [], work.stepLevel);
  await overlapCall(t, b, "POST", `/api/overlap/runs/${run.id}/answer`, {
    doubled: answered.doubled,
    points: answered.points,
    level: work.stepLevel,
  });
  await options.afterAnswer?.({ runId: run.id, answeredPoints: answered.points });
  const back = await overlapCall<OverlapRunWork>(t, a, "GET", `/api/overlap/runs/${run.id}`);
  const completed = completeRun(
    sodium,
    started.scalar,
    { doubled: back.doubled ?? [], partnerPoints: back.partnerPoints ?? [] },
    back.stepLevel,
  );
  const forA = await overlapCall<OverlapRun>(t, a, "POST", `/api/overlap/runs/${run.id}/complete`, {
    doubled: completed.doubled,
    level: back.stepLevel,
  });
  const runsOfB = await overlapCall<{ runs: OverlapRun[] }>(t, b, "GET", "/api/overlap/runs");
  const forB = runsOfB.runs.find((entry) => entry.id === run.id);
  if (!forB) throw new Error("B does not see the run");
  return {
    forA,
    forB,
    localCount: completed.count,
    /** Each side's shared accounts, mapped back through its own order (Overlaps mode). */
    aShared: forA.matches?.map((i) => started.order[i] as string) ?? null,
    bShared: forB.matches?.map((j) => answered.order[j] as string) ?? null,
  };
}
