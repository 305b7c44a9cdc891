import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuddyProcess, freePort, startBuddy } from "../test-buddy-process";
import { type LocalPostgres, startLocalPostgres } from "../test-local-servers";
import { type MailReceiver, startMailReceiver } from "../test-mail-receiver";
import { browserAgent, setUpPartners } from "./test-partners";
import { printOutputOnFailure, report } from "./test-process-suite";

type Family = { type: string; samples: Array<{ name: string; labels: string; value: number }> };

/** The Prometheus text format, strictly: every sample parses and belongs to a declared family. */
function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const familyOf = (sample: string) =>
    families.get(sample) ?? families.get(sample.replace(/_(bucket|sum|count|total|created)$/, ""));
  for (const line of text.split("\n")) {
    if (!line.trim() || line.startsWith("# HELP ")) continue;
    const type = line.match(/^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/);
    if (type) {
      families.set(type[1] ?? "", { type: type[2] ?? "", samples: [] });
      continue;
    }
    const sample = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)( -?\d+)?$/);
    if (!sample) throw new Error(`not a sample line: ${line}`);
    const [, name = "", labels = "", raw = ""] = sample;
    const value = raw === "+Inf" ? Infinity : raw === "-Inf" ? -Infinity : Number(raw);
    if (Number.isNaN(value) && raw !== "NaN") throw new Error(`not a number: ${line}`);
    const family = familyOf(name);
    if (!family) throw new Error(`a sample of no declared family: ${line}`);
    family.samples.push({ name, labels, value });
  }
  return families;
}

/**
 * Prometheus metrics (issue 16 §3) listen on METRICS_PORT only: the public port, which the
 * internet reaches, never answers them.
 */
describe("the metrics listener", () => {
  let postgres: LocalPostgres;
  let mail: MailReceiver;
  let buddy: BuddyProcess | undefined;
  let metricsPort: number;
  // Named, not made: the server makes it; nothing is left behind by merely listing the tests.
  const dataDir = path.join(tmpdir(), `buddy-metrics-${crypto.randomUUID()}`);
  beforeAll(async () => {
    [postgres, mail, metricsPort] = await Promise.all([
      startLocalPostgres(),
      startMailReceiver(),
      freePort(),
    ]);
    buddy = await startBuddy({
      databaseUrl: postgres.url,
      appSecret: crypto.randomUUID() + crypto.randomUUID(),
      dataDir,
      mail,
      stdio: "capture",
      env: { METRICS_PORT: String(metricsPort) },
    });
  }, 60_000);
  afterAll(async () => {
    await buddy?.kill();
    await postgres?.destroy();
    await mail?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  printOutputOnFailure(() => buddy?.output());

  it("serves parseable metrics on METRICS_PORT and none on the public port", async () => {
    const origin = buddy?.origin ?? "";
    const { shortUrl } = await setUpPartners(origin, mail);
    const CLICKS = 5;
    for (let i = 0; i < CLICKS; i++) {
      const response = await fetch(shortUrl, {
        redirect: "manual",
        headers: { "user-agent": browserAgent(i) },
      });
      expect(response.status).toBe(302);
    }

    const exposed = await fetch(`${origin}/metrics`);
    const exposedText = await exposed.text();
    expect(exposed.status).toBe(404);
    expect(exposedText).not.toContain("# TYPE");

    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const families = parseExposition(await response.text());
    const histograms = [...families].filter(([, family]) => family.type === "histogram");
    expect(histograms.length).toBeGreaterThan(0);
    // The clicks stored are counted (whatever the exact name, it speaks of clicks).
    const clickCounts = [...families]
      .filter(([name, family]) => /click/i.test(name) && family.type === "counter")
      .map(([name, family]) => ({ name, total: family.samples.reduce((sum, s) => sum + s.value, 0) }));
    report("metrics", { families: families.size, histograms: histograms.map(([name]) => name), clickCounts });
    expect(clickCounts.some((count) => count.total >= CLICKS)).toBe(true);
  });
});
