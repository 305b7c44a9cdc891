// Issue 39's overlap part: 10,000 × 10,000 customer domains with 1,234 in common, run end to end
// through the running server's API by two Buddies with API keys, as a company's own server would
// (the shared protocol, libsodium in Node); beside it the same protocol with no HTTP, measured in
// the same run. Then the browser's share: blinding 10,000 domains (startRun) in headless Chromium.
import { createServer } from "node:http";
import path from "node:path";
import { chromium } from "@playwright/test";
import type { OverlapRun, OverlapRunWork } from "@shared/overlap";
import {
  answerRun,
  blindDomains,
  completeRun,
  newScalar,
  runResult,
  startRun,
} from "@shared/overlap-protocol";
import { build } from "esbuild";
import sodium from "libsodium-wrappers-sumo";
import type { BuddyProcess } from "../src/server/testing/buddy-process";
import { must, setUpPartners } from "../src/server/testing/instances/partners";
import { processCpuMs, record, waitForQuiet } from "./harness";
import type { BrowserBlinding } from "./overlap-page";

const DOMAINS = Number(process.env.BENCH_OVERLAP_DOMAINS ?? 10_000);
const COMMON = Number(process.env.BENCH_OVERLAP_COMMON ?? 1_234);
/** The target for the whole run through the API, on this machine. */
const TARGET_MS = 20_000;
const CHROME_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const format = (n: number) => n.toLocaleString("en-US");
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * Two customer lists of DOMAINS registrable domains each, COMMON of them in both. Each list is in
 * its own order (CRM exports are not sorted alike), the shared ones spread through it.
 */
export function overlapLists() {
  const shared = Array.from({ length: COMMON }, (_, i) => `shared-account-${i}.com`);
  const own = (side: string) =>
    Array.from({ length: DOMAINS - COMMON }, (_, i) => `${side}-customer-${i}.${i % 3 ? "com" : "io"}`);
  const interleave = (a: string[], b: string[]) => {
    const out: string[] = [];
    const step = Math.max(1, Math.floor(a.length / Math.max(1, b.length)));
    let j = 0;
    a.forEach((value, i) => {
      out.push(value);
      if (i % step === step - 1 && j < b.length) out.push(b[j++] as string);
    });
    return [...out, ...b.slice(j)];
  };
  return { a: interleave(own("alpha"), shared), b: interleave([...shared].reverse(), own("beta")) };
}

/** CPU time of this process so far (user and system, all threads), in milliseconds. */
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** The protocol alone: both sides' steps and the relay's comparison, in this process. */
function localRun(a: string[], b: string[]) {
  const at = performance.now();
  const cpuAt = cpuMs();
  const started = startRun(sodium, a);
  const answered = answerRun(sodium, b, started.points, "counts");
  const completed = completeRun(
    sodium,
    started.scalar,
    { doubled: answered.doubled, partnerPoints: answered.points },
    "counts",
  );
  const relay = runResult(answered.doubled, completed.doubled, "counts");
  return {
    ms: performance.now() - at,
    cpuMs: cpuMs() - cpuAt,
    count: completed.count,
    relayCount: relay.count,
  };
}

type Side = { organizationId: string; key: string };
/** A step's times, in ms: the protocol's work here (wall and CPU), its requests, the server's CPU. */
type Step = { client: number; clientCpu: number; http: number; serverCpu: number };

/** One request with the side's API key: its wall time (JSON both ways included) and the server's CPU. */
async function timed<T>(
  buddy: BuddyProcess,
  step: Step,
  side: Side,
  method: "GET" | "POST" | "PUT",
  url: string,
  body?: unknown,
): Promise<T> {
  const cpuBefore = processCpuMs(buddy.pid);
  const at = performance.now();
  const response = await fetch(`${buddy.origin}${url}`, {
    method,
    headers: {
      "x-api-key": side.key,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 300)}`);
  const parsed = JSON.parse(text) as T;
  step.http += performance.now() - at;
  const cpuAfter = processCpuMs(buddy.pid);
  if (cpuBefore !== null && cpuAfter !== null) step.serverCpu += cpuAfter - cpuBefore;
  return parsed;
}

function clientStep<T>(step: Step, work: () => T): T {
  const at = performance.now();
  const cpuAt = cpuMs();
  const result = work();
  step.client += performance.now() - at;
  step.clientCpu += cpuMs() - cpuAt;
  return result;
}

const newStep = (): Step => ({ client: 0, clientCpu: 0, http: 0, serverCpu: 0 });

/** Two Buddies on the running server, each with an API key of its own. */
async function setUpSides(buddy: BuddyProcess): Promise<{ a: Side; b: Side }> {
  const partners = await setUpPartners(buddy.origin, buddy.mail, { prefix: "overlap" });
  const keyOf = async (token: string) =>
    (
      await must<{ key: string }>(buddy.origin, "/api/api-keys", token, {
        method: "POST",
        body: JSON.stringify({ name: "overlap bench" }),
      })
    ).key;
  return {
    a: { organizationId: partners.sharerId, key: await keyOf(partners.sharerToken) },
    b: { organizationId: partners.partnerId, key: await keyOf(partners.partnerToken) },
  };
}

/** The run through the API, on `buddy` (one database), with the local protocol measured just before. */
export async function benchOverlap(database: string, buddy: BuddyProcess) {
  await sodium.ready;
  const lists = overlapLists();
  const sides = await setUpSides(buddy);

  const quietBefore = await waitForQuiet();
  const local = localRun(lists.a, lists.b);
  if (local.count !== COMMON || local.relayCount !== COMMON)
    throw new Error(`the local protocol counted ${local.count} (relay ${local.relayCount}), not ${COMMON}`);

  const quiet = (await waitForQuiet()) && quietBefore;
  const { a, b } = sides;
  const steps = {
    declare: newStep(),
    start: newStep(),
    answer: newStep(),
    complete: newStep(),
    read: newStep(),
  };
  const at = performance.now();
  // Each side says it holds its customers list, and its size (the list itself stays here).
  await timed(buddy, steps.declare, a, "PUT", "/api/overlap/populations/customers", {
    domainCount: lists.a.length,
  });
  await timed(buddy, steps.declare, b, "PUT", "/api/overlap/populations/customers", {
    domainCount: lists.b.length,
  });
  // Step 1, A: a·H(x).
  const started = clientStep(steps.start, () => startRun(sodium, lists.a));
  const run = await timed<OverlapRun>(buddy, steps.start, a, "POST", "/api/overlap/runs", {
    partnerId: b.organizationId,
    population: "customers",
    partnerPopulation: "customers",
    points: started.points,
  });
  // Step 2, B: b·(a·H(x)) and b·H(y).
  const work = await timed<OverlapRunWork>(buddy, steps.answer, b, "GET", `/api/overlap/runs/${run.id}`);
  const answered = clientStep(steps.answer, () =>
    answerRun(sodium, lists.b, work.points ?? [], work.stepLevel),
  );
  await timed(buddy, steps.answer, b, "POST", `/api/overlap/runs/${run.id}/answer`, {
    doubled: answered.doubled,
    points: answered.points,
  });
  // Step 3, A: a·(b·H(y)), compared here and sent back for the relay to compare too.
  const back = await timed<OverlapRunWork>(buddy, steps.complete, a, "GET", `/api/overlap/runs/${run.id}`);
  const completed = clientStep(steps.complete, () =>
    completeRun(
      sodium,
      started.scalar,
      { doubled: back.doubled ?? [], partnerPoints: back.partnerPoints ?? [] },
      back.stepLevel,
    ),
  );
  const forA = await timed<OverlapRun>(
    buddy,
    steps.complete,
    a,
    "POST",
    `/api/overlap/runs/${run.id}/complete`,
    {
      doubled: completed.doubled,
    },
  );
  // B reads the result.
  const forB = await timed<OverlapRunWork>(buddy, steps.read, b, "GET", `/api/overlap/runs/${run.id}`);
  const totalMs = performance.now() - at;

  const all = Object.values(steps);
  const sum = (pick: (step: Step) => number) => all.reduce((n, step) => n + pick(step), 0);
  const clientMs = sum((step) => step.client);
  const clientCpuMs = sum((step) => step.clientCpu);
  const httpMs = sum((step) => step.http);
  const serverCpuMs = sum((step) => step.serverCpu);
  const size = `${format(lists.a.length)} × ${format(lists.b.length)}`;
  record({
    database,
    name: `account overlap ${size} through the API (API keys), the whole run`,
    ratio: `${seconds(totalMs)}: clients ${seconds(clientMs)} (CPU ${seconds(clientCpuMs)}), HTTP ${seconds(httpMs)} (server CPU ${seconds(serverCpuMs)}); ${(totalMs / local.ms).toFixed(2)}× the protocol alone, ${seconds(local.ms)} (CPU ${seconds(local.cpuMs)})${quiet ? "" : "; the machine was busy"}`,
    target: `< ${TARGET_MS / 1000} s`,
    ok: totalMs < TARGET_MS,
  });
  const counts = [completed.count, forA.count, forB.count];
  record({
    database,
    name: `account overlap ${size}: the count`,
    ratio: `A's own ${format(completed.count)}, A's result ${forA.count === null ? "null" : format(forA.count)}, B's ${forB.count === null ? "null" : format(forB.count)}; ${forA.status}/${forB.status}`,
    target: `exactly ${format(COMMON)} on both sides`,
    ok:
      counts.every((count) => count === COMMON) && forA.status === "completed" && forB.status === "completed",
  });
  for (const [name, step] of [
    ["both lists declared (2 PUTs)", steps.declare],
    ["step 1, A starts: a·H(x), POST", steps.start],
    ["step 2, B answers: GET, b·(a·H(x)) and b·H(y), POST", steps.answer],
    ["step 3, A completes: GET, a·(b·H(y)), POST", steps.complete],
    ["B reads the result (GET)", steps.read],
  ] as const) {
    record({
      database,
      name: `account overlap: ${name}`,
      ratio: `client ${format(Math.round(step.client))} ms (CPU ${format(Math.round(step.clientCpu))}), HTTP ${format(Math.round(step.http))} ms (server CPU ${format(step.serverCpu)} ms)`,
      target: "(information)",
      ok: true,
    });
  }
}

/** The page's script: the shared protocol and libsodium in one ES module, as a browser loads them. */
async function pageScript(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(import.meta.dirname, "overlap-page.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    tsconfig: path.join(import.meta.dirname, "../tsconfig.node.json"),
    logLevel: "warning",
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error("esbuild wrote no page script");
  return output.text;
}

/** startRun over 10,000 domains in headless Chromium, checked against Node's points for one scalar. */
export async function benchBrowserBlinding() {
  await sodium.ready;
  const domains = overlapLists().a;
  const script = await pageScript();
  const server = createServer((request, response) => {
    if (request.url === "/overlap.js") {
      response.writeHead(200, { "content-type": "text/javascript" }).end(script);
    } else {
      response
        .writeHead(200, { "content-type": "text/html" })
        .end('<!doctype html><title>overlap bench</title><script type="module" src="/overlap.js"></script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const browser = await chromium.launch({
    executablePath: CHROME_PATH,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(origin);
    await page.waitForFunction(() => "overlapBench" in window);
    const scalar = newScalar(sodium);
    const quiet = await waitForQuiet();
    const measured: BrowserBlinding = await page.evaluate(([list, k]) => window.overlapBench.blind(list, k), [
      domains,
      scalar,
    ] as const);
    if (errors.length) throw new Error(`the page failed: ${errors.join("; ")}`);
    const expected = blindDomains(sodium, scalar, domains);
    const same =
      measured.points.length === expected.length && measured.points.every((p, i) => p === expected[i]);
    record({
      database: "Chromium",
      name: `browser blinding of ${format(domains.length)} domains (startRun: H(domain), a·H), Chromium ${browser.version()}`,
      ratio: `${seconds(measured.firstStartRunMs)} first run (hash to the group ${seconds(measured.hashMs)}, again with Node's scalar ${seconds(measured.blindMs)}); libsodium ready in ${Math.round(measured.readyMs)} ms; ${same ? "points equal Node's" : "POINTS DIFFER from Node's"}${quiet ? "" : "; the machine was busy"}`,
      target: "(measured and reported)",
      ok: same,
    });
  } finally {
    await browser.close();
    server.close();
  }
}
