import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { OverlapRun, OverlapRunWork } from "@shared/overlap";
import { parseDomainList } from "@shared/overlap-domains";
import { answerRun } from "@shared/overlap-protocol";
import { eq } from "drizzle-orm";
import sodium from "libsodium-wrappers-sumo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { overlapRuns } from "../../db/schema";
import { createApiKey, createOrganization, createTestApp, relate, type TestApp } from "../../testing/app";

/**
 * docs/overlap-api.md's Node client, run as its reader would (`node overlap-client.mjs …` with an
 * API key, a CSV and a state file) against a real Buddy listening on a port, on both sides of a run.
 */
const EXAMPLE = fileURLToPath(new URL("../../../../docs/examples/overlap-client.mjs", import.meta.url));
const DOC = fileURLToPath(new URL("../../../../docs/overlap-api.md", import.meta.url));
const execFileAsync = promisify(execFile);

let t: TestApp;
let origin: string;
let work: string;
type Side = { organizationId: string; key: string; dir: string };
let a: Side;
let b: Side;

/** 37 shared companies written differently on each side, and one IDN (bücher.de / punycode). */
const SHARED = [...Array.from({ length: 37 }, (_, i) => `shared-${i}.co.uk`), "xn--bcher-kva.de"].sort();
const A_CSV = [
  "Company,Website,Contact",
  ...Array.from({ length: 100 }, (_, i) => `A-only ${i},https://a-only-${i}.com/,buyer@a-only-${i}.com`),
  ...Array.from(
    { length: 37 },
    (_, i) => `Shared ${i},https://www.shared-${i}.co.uk/pricing,ceo@shared-${i}.co.uk`,
  ),
  "Bücher,https://www.bücher.de/",
].join("\n");
const B_CSV = [
  "name;domain",
  ...Array.from({ length: 37 }, (_, i) => `"Shared ${i}";SHARED-${i}.CO.UK`),
  "Buecher;xn--bcher-kva.de",
  ...Array.from({ length: 80 }, (_, i) => `"B-only ${i}";mailto:sales@b-only-${i}.io`),
].join("\n");

async function cli<T>(side: Side, ...args: string[]): Promise<T> {
  const { stdout } = await execFileAsync(process.execPath, [EXAMPLE, ...args], {
    cwd: side.dir,
    env: { ...process.env, BUDDY_URL: origin, BUDDY_API_KEY: side.key },
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as T;
}

async function api<T>(side: Side, method: "GET" | "POST" | "PUT", url: string, payload?: object): Promise<T> {
  const response = await t.app.inject({
    method,
    url,
    headers: { "x-api-key": side.key },
    payload,
  });
  expect(response.statusCode, `${method} ${url}: ${response.body.slice(0, 300)}`).toBeLessThan(300);
  return response.json() as T;
}

async function side(label: string, csv: string): Promise<Side & { headers: Record<string, string> }> {
  const org = await createOrganization(t, label);
  const { key } = await createApiKey(t, org, "crm export");
  const home = mkdtempSync(path.join(work, `${label}-`));
  writeFileSync(path.join(home, "customers.csv"), csv);
  return { organizationId: org.organizationId, key, dir: home, headers: org.headers };
}

beforeAll(async () => {
  await sodium.ready;
  work = mkdtempSync(path.join(tmpdir(), "overlap-example-"));
  t = await createTestApp();
  origin = await t.app.listen({ port: 0, host: "127.0.0.1" });
  const first = await side("nodeexa", A_CSV);
  const second = await side("nodeexb", B_CSV);
  await relate(t, first, second.organizationId, "complement");
  a = first;
  b = second;
});
afterAll(async () => {
  await t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

type Completed = OverlapRun & { shared: string[] | null };

describe("the Node client of docs/overlap-api.md", () => {
  it("is quoted in full by the doc, as it is in docs/examples", () => {
    const source = readFileSync(EXAMPLE, "utf8");
    expect(readFileSync(DOC, "utf8")).toContain(`\`\`\`js\n${source}\`\`\``);
  });

  // Each test starts Node processes that load libsodium: room for a busy machine.
  it("on both sides, from CSV files and an API key each, gets the exact count", async () => {
    const declared = await cli<{ populations: { population: string; domainCount: number }[] }>(
      a,
      "declare",
      "--customers",
      "customers.csv",
    );
    expect(declared.populations).toEqual([
      expect.objectContaining({ population: "customers", domainCount: 138 }),
    ]);
    await cli(b, "declare", "--customers", "customers.csv");

    const started = await cli<OverlapRun>(
      a,
      "start",
      b.organizationId,
      "customers",
      "customers",
      "--customers",
      "customers.csv",
    );
    expect(started).toMatchObject({ status: "waiting", started: true });
    expect(await cli(a, "poll", "--customers", "customers.csv")).toEqual([]);

    const answered = await cli<OverlapRun[]>(b, "poll", "--customers", "customers.csv");
    expect(answered).toEqual([expect.objectContaining({ id: started.id, status: "answered" })]);
    const completed = await cli<OverlapRun[]>(a, "poll", "--customers", "customers.csv");
    expect(completed).toEqual([
      expect.objectContaining({ id: started.id, status: "completed", level: "counts", count: 38 }),
    ]);

    for (const org of [a, b]) {
      const results = await cli<Completed[]>(org, "results");
      expect(results).toEqual([
        expect.objectContaining({ id: started.id, count: 38, matches: null, shared: null }),
      ]);
    }
    // The scalar went with the run; Buddy kept the result only.
    const state = JSON.parse(readFileSync(path.join(a.dir, "overlap-state.json"), "utf8"));
    expect(state.runs[started.id]).toMatchObject({ scalar: null });
    expect(state.runs[started.id].order).toHaveLength(138);
    const [row] = await t.database.db.select().from(overlapRuns).where(eq(overlapRuns.id, started.id));
    expect(row).toMatchObject({ starterPoints: null, responderDoubled: null, responderPoints: null });
  }, 60_000);

  it("in Overlaps mode reads its own shared accounts, against the browser's code on the other side", async () => {
    for (const [self, other] of [
      [a, b],
      [b, a],
    ] as const) {
      await api(self, "PUT", `/api/overlap/partners/${other.organizationId}`, { level: "overlaps" });
    }
    await cli(a, "declare", "--prospects", "customers.csv");
    const started = await cli<OverlapRun>(
      a,
      "start",
      b.organizationId,
      "prospects",
      "customers",
      "--prospects",
      "customers.csv",
    );

    // B answers as Buddy's browser does: the shared parser and protocol, the same hash and points.
    const bDomains = parseDomainList(B_CSV).domains;
    const step = await api<OverlapRunWork>(b, "GET", `/api/overlap/runs/${started.id}`);
    expect(step.stepLevel).toBe("overlaps");
    const answer = answerRun(sodium, bDomains, step.points ?? [], step.stepLevel);
    await api(b, "POST", `/api/overlap/runs/${started.id}/answer`, {
      doubled: answer.doubled,
      points: answer.points,
      level: step.stepLevel,
    });

    const [completed] = await cli<OverlapRun[]>(a, "poll", "--prospects", "customers.csv");
    expect(completed).toMatchObject({ id: started.id, level: "overlaps", count: 38 });
    const mine = (await cli<Completed[]>(a, "results")).find((run) => run.id === started.id);
    expect(mine?.shared).toEqual(SHARED);
    const theirs = (await api<{ runs: OverlapRun[] }>(b, "GET", "/api/overlap/runs")).runs.find(
      (run) => run.id === started.id,
    );
    expect(theirs?.matches?.map((i) => answer.order[i]).sort()).toEqual(SHARED);
  }, 60_000);
});
