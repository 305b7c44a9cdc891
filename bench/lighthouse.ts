// `npm run lighthouse`: Lighthouse on the production build, /auth and a signed-in /dashboard, with
// the mobile (default) and desktop presets. A benchmark to read, not a test: it prints the scores
// and what cost them, and exits 0 whatever they are.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { setPriority } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { launch } from "chrome-launcher";
import lighthouse, { type Config, desktopConfig, type Result } from "lighthouse";
import { startBuddy } from "../src/server/testing/buddy-process";
import { partnerDashboard } from "./partner-dashboard";

const ROOT = path.resolve(import.meta.dirname, "..");
const CHROME_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Several runs of each audit, reported as medians: one run's CPU-bound figures vary on a shared machine. */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 1);
/** A folder to write each run's HTML report to, to see what an audit found. */
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;
/** `LIGHTHOUSE_PAGES=/dashboard` and `LIGHTHOUSE_PRESETS=mobile` audit only some pages or presets. */
const PAGES = process.env.LIGHTHOUSE_PAGES?.split(",");
const PRESETS = process.env.LIGHTHOUSE_PRESETS?.split(",");
const CATEGORIES = ["performance", "accessibility", "best-practices"] as const;
const TARGET = 95;

const presets: Record<string, Config | undefined> = { mobile: undefined, desktop: desktopConfig };

function newestMtime(target: string): number {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(target).map((name) => newestMtime(path.join(target, name))));
}

/** A stale dist would measure yesterday's code: rebuild when a source is newer than the build. */
function buildIfNeeded() {
  const built = ["dist/server/main.js", "dist/web/index.html"].map((file) => path.join(ROOT, file));
  const sources = ["src", "vite.config.ts", "package-lock.json"].map((file) => path.join(ROOT, file));
  const stale =
    !built.every((file) => existsSync(file)) ||
    Math.max(...sources.map(newestMtime)) > Math.min(...built.map((file) => statSync(file).mtimeMs));
  if (stale) execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
}

type Row = {
  page: string;
  preset: string;
  scores: Record<(typeof CATEGORIES)[number], number>;
  fcp: number;
  lcp: number;
  tbt: number;
  /**
   * Lighthouse's measure of the machine's speed during the audit (higher is faster): its 4×
   * slowdown of a phone assumes a fast desktop, so scores on a slower or busier machine fall.
   */
  benchmarkIndex: number;
  /** Accessibility and best-practices audits that failed, with what they found. */
  findings: string[];
};

function findingsOf(lhr: Result): string[] {
  const found: string[] = [];
  for (const category of ["accessibility", "best-practices"] as const) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || ref.weight === 0 || audit.score === null || audit.score === 1) continue;
      const details = audit.details as { items?: Record<string, unknown>[] } | undefined;
      const items = (details?.items ?? []).map((item) => {
        const node = item.node as { snippet?: string } | undefined;
        const sub = (item.subItems as { items?: { url?: string }[] } | undefined)?.items ?? [];
        return (
          node?.snippet ??
          item.description ??
          item.url ??
          [item.issueType, ...sub.map((subItem) => subItem.url)].filter(Boolean).join(" ")
        );
      });
      found.push(`${category}: ${audit.title}${items.length ? `\n      ${items.join("\n      ")}` : ""}`);
    }
  }
  return found;
}

/**
 * One audit in a Chrome of its own (a fresh profile, an empty cache). For a signed-in page the token
 * is put where the web app keeps it (localStorage, src/web/lib/session.ts) first, and Lighthouse is
 * told not to reset storage, which would sign it out.
 */
async function audit(url: string, preset: string, token?: string): Promise<Result> {
  const chrome = await launch({
    chromePath: CHROME_PATH,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
  });
  try {
    if (token) {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const context = browser.contexts()[0] ?? (await browser.newContext());
      const page = await context.newPage();
      // A same-origin document that does not start the app, so nothing but the token is kept.
      await page.goto(new URL("/favicon.svg", url).href);
      await page.evaluate((value) => localStorage.setItem("token", value), token);
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.clearBrowserCache");
      await page.close();
      await browser.close();
    }
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        logLevel: "error",
        output: "html",
        onlyCategories: [...CATEGORIES],
        disableStorageReset: token !== undefined,
      },
      presets[preset],
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (REPORT_DIR) {
      mkdirSync(REPORT_DIR, { recursive: true });
      const name = `${new URL(url).pathname.slice(1)}-${preset}-${Date.now()}.html`;
      writeFileSync(path.join(REPORT_DIR, name), result.report as string);
    }
    return lhr;
  } finally {
    chrome.kill();
  }
}

/**
 * Lighthouse sometimes loses its trace of a load on a busy machine (NO_NAVSTART, NO_FCP): the page
 * is not at fault, and a second try records it.
 */
async function auditWithRetries(url: string, preset: string, token?: string): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(url, preset, token);
    } catch (error) {
      if (attempt === 3) throw error;
      console.error(`retrying ${url} (${preset}): ${(error as Error).message}`);
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function main() {
  buildIfNeeded();
  const buddy = await startBuddy({ stdio: "capture" });
  const rows: Row[] = [];
  try {
    const token = await partnerDashboard(buddy);
    // A phone does not share its processor with the server: on this machine the two would, and
    // the server's answers would lengthen the page's own tasks. It yields to Chrome instead.
    setPriority(buddy.pid, 19);
    const pages = [
      { page: "/auth", token: undefined },
      { page: "/dashboard", token },
    ];
    for (const { page, token: pageToken } of pages.filter(({ page }) => !PAGES || PAGES.includes(page))) {
      for (const preset of Object.keys(presets).filter((name) => !PRESETS || PRESETS.includes(name))) {
        const runs: Result[] = [];
        // A first audit, not counted: a server that has just started answers its first requests
        // slowly (its code is not yet compiled), and Lighthouse's simulation takes those times in.
        await auditWithRetries(`${buddy.origin}${page}`, preset, pageToken);
        for (let run = 0; run < RUNS; run++) {
          const lhr = await auditWithRetries(`${buddy.origin}${page}`, preset, pageToken);
          if (new URL(lhr.finalDisplayedUrl).pathname !== page)
            throw new Error(`${page} ended on ${lhr.finalDisplayedUrl}: was the session lost?`);
          runs.push(lhr);
        }
        const metric = (id: string) => median(runs.map((lhr) => lhr.audits[id]?.numericValue ?? Number.NaN));
        const score = (id: string) =>
          median(runs.map((lhr) => Math.round((lhr.categories[id]?.score ?? 0) * 100)));
        rows.push({
          page,
          preset,
          scores: {
            performance: score("performance"),
            accessibility: score("accessibility"),
            "best-practices": score("best-practices"),
          },
          fcp: metric("first-contentful-paint"),
          lcp: metric("largest-contentful-paint"),
          tbt: metric("total-blocking-time"),
          benchmarkIndex: median(runs.map((lhr) => lhr.environment.benchmarkIndex)),
          findings: [...new Set(runs.flatMap(findingsOf))],
        });
        console.error(
          `audited ${page} (${preset}), ${RUNS} run(s): performance ${runs.map((lhr) => Math.round((lhr.categories.performance?.score ?? 0) * 100)).join(", ")}; benchmark index ${runs.map((lhr) => Math.round(lhr.environment.benchmarkIndex)).join(", ")}`,
        );
      }
    }
  } finally {
    await buddy.stop();
  }

  console.table(
    rows.map((row) => ({
      page: row.page,
      preset: row.preset,
      performance: row.scores.performance,
      accessibility: row.scores.accessibility,
      "best-practices": row.scores["best-practices"],
      "FCP s": (row.fcp / 1000).toFixed(1),
      "LCP s": (row.lcp / 1000).toFixed(1),
      "TBT ms": Math.round(row.tbt),
      "benchmark index": Math.round(row.benchmarkIndex),
    })),
  );
  const below = rows.flatMap((row) =>
    CATEGORIES.filter((category) => row.scores[category] < TARGET).map(
      (category) => `${row.page} ${row.preset} ${category} ${row.scores[category]}`,
    ),
  );
  if (below.length) console.log(`Below ${TARGET}: ${below.join("; ")}`);
  for (const row of rows) {
    if (row.findings.length) console.log(`\n${row.page} (${row.preset}):\n  ${row.findings.join("\n  ")}`);
  }
}

await main();
