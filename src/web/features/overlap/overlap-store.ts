import type { OverlapPopulation } from "@shared/overlap";
import { type DBSchema, type IDBPDatabase, openDB } from "idb";
import { OverlapStepError } from "./overlap-errors";

/**
 * What only this browser holds (CONTRACT §11): the lists in the clear, and for each run the order
 * its domains were sent in and, for a run it started, its secret scalar. Nothing here is sent to
 * Buddy; the export moves it to another device.
 */
export type StoredList = {
  key: string;
  organizationId: string;
  population: OverlapPopulation;
  domains: string[];
  updatedAt: string;
};

export type StoredRun = {
  runId: string;
  organizationId: string;
  /** The starting side's `a`, until it completes the run; the answering side keeps none. */
  scalar: string | null;
  /** This side's domains in the order their points were sent: positions map back through it. */
  order: string[];
};

interface OverlapDb extends DBSchema {
  lists: { key: string; value: StoredList };
  runs: { key: string; value: StoredRun };
}

const DB_NAME = "buddy-overlap";
let opened: Promise<IDBPDatabase<OverlapDb>> | undefined;

function database() {
  opened ??= openDB<OverlapDb>(DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore("lists", { keyPath: "key" });
      db.createObjectStore("runs", { keyPath: "runId" });
    },
  });
  return opened;
}

const listKey = (organizationId: string, population: OverlapPopulation) => `${organizationId}:${population}`;

export async function saveList(organizationId: string, population: OverlapPopulation, domains: string[]) {
  const list: StoredList = {
    key: listKey(organizationId, population),
    organizationId,
    population,
    domains,
    updatedAt: new Date().toISOString(),
  };
  await (await database()).put("lists", list);
  return list;
}

export async function readList(organizationId: string, population: OverlapPopulation) {
  return (await database()).get("lists", listKey(organizationId, population));
}

export async function readLists(organizationId: string): Promise<StoredList[]> {
  const all = await (await database()).getAll("lists");
  return all.filter((list) => list.organizationId === organizationId);
}

export async function removeList(organizationId: string, population: OverlapPopulation) {
  await (await database()).delete("lists", listKey(organizationId, population));
}

export async function saveRun(run: StoredRun) {
  await (await database()).put("runs", run);
}

export async function readRun(runId: string) {
  return (await database()).get("runs", runId);
}

/** The export file: this organization's lists and runs, to carry to another device. */
export type OverlapExport = {
  format: "buddy-overlap";
  version: 1;
  organizationId: string;
  lists: StoredList[];
  runs: StoredRun[];
};

export async function exportAll(organizationId: string): Promise<OverlapExport> {
  const db = await database();
  const runs = (await db.getAll("runs")).filter((run) => run.organizationId === organizationId);
  return {
    format: "buddy-overlap",
    version: 1,
    organizationId,
    lists: await readLists(organizationId),
    runs,
  };
}

/** Reads an export of the same organization back; answers the lists it brought. */
export async function importAll(organizationId: string, file: unknown): Promise<StoredList[]> {
  const data = file as Partial<OverlapExport> | null;
  if (
    data?.format !== "buddy-overlap" ||
    data.version !== 1 ||
    !Array.isArray(data.lists) ||
    !Array.isArray(data.runs)
  ) {
    throw new OverlapStepError("This is not a Buddy overlap export");
  }
  if (data.organizationId !== organizationId) {
    throw new OverlapStepError("This export belongs to another organization");
  }
  const db = await database();
  const tx = db.transaction(["lists", "runs"], "readwrite");
  for (const list of data.lists) {
    if (typeof list?.key === "string" && Array.isArray(list.domains)) await tx.objectStore("lists").put(list);
  }
  for (const run of data.runs) {
    if (typeof run?.runId === "string" && Array.isArray(run.order)) await tx.objectStore("runs").put(run);
  }
  await tx.done;
  return data.lists;
}
