// Issue 28's export target: a million rows streamed with the server's heap growing by less than
// 50 MB. The server's heap is read from its own Prometheus metrics while the export downloads.
import type { BuddyProcess } from "../src/server/testing/buddy-process";
import { record } from "./harness";
import { SEEDED_CONVERSIONS } from "./metrics-seed";

const HEAP_GROWTH_MB = 50;
const SAMPLE_MS = 100;
const DAY_MS = 86_400_000;

/** `nodejs_heap_size_used_bytes` from the server's /metrics. */
async function heapUsed(metricsOrigin: string): Promise<number> {
  const text = await (await fetch(`${metricsOrigin}/metrics`)).text();
  const line = text.split("\n").find((entry) => entry.startsWith("nodejs_heap_size_used_bytes "));
  return Number(line?.split(" ")[1] ?? Number.NaN);
}

/**
 * The sharer's conversions of the last 366 days (the million seeded both ways, and the bench's own),
 * read as a client would: the body's bytes and lines counted as they arrive, the server's heap
 * sampled meanwhile, the growth measured from the heap before the request.
 */
export async function benchExport(
  database: string,
  buddy: BuddyProcess,
  token: string,
  metricsOrigin: string,
) {
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 365 * DAY_MS).toISOString().slice(0, 10);
  const before = await heapUsed(metricsOrigin);
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await heapUsed(metricsOrigin));
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })();
  const started = performance.now();
  const response = await fetch(`${buddy.origin}/api/exports/conversions.csv?from=${from}&to=${to}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  let bytes = 0;
  let lines = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) break;
    bytes += chunk.value.byteLength;
    for (const byte of chunk.value) if (byte === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  const rows = lines - 1;
  const growthMb = (peak - before) / 1024 / 1024;
  record({
    database,
    name: "GET /api/exports/conversions.csv (366 days)",
    connections: 1,
    ratio: `${rows} rows, ${(bytes / 1024 / 1024).toFixed(0)} MB in ${seconds.toFixed(1)} s (${Math.round(rows / seconds)} rows/s); heap ${(before / 1024 / 1024).toFixed(0)} → peak ${(peak / 1024 / 1024).toFixed(0)} MB`,
    target: `heap growth < ${HEAP_GROWTH_MB} MB, rows ≥ ${SEEDED_CONVERSIONS}`,
    ok: response.status === 200 && rows >= SEEDED_CONVERSIONS && growthMb < HEAP_GROWTH_MB,
  });
}
