// Tracking hot paths against bare Fastify answering the same kind of response: a 302, a GIF, JSON.
import { createClickIds } from "../src/server/modules/tracking/clicks/click-id";
import type { BuddyProcess } from "../src/server/testing/buddy-process";
import { clickIdOf, must, setUpPartners } from "../src/server/testing/instances/partners";
import { compare, record, startBaseline } from "./harness";

/** Two Buddies, an active ad, a short link, a click and an API key: what the hot paths need. */
export async function setUpForBench(buddy: BuddyProcess) {
  const partners = await setUpPartners(buddy.origin, buddy.mail, { prefix: "track" });
  const { key } = await must<{ key: string }>(buddy.origin, "/api/api-keys", partners.sharerToken, {
    method: "POST",
    body: JSON.stringify({ name: "bench" }),
  });
  const first = await fetch(partners.shortUrl, { redirect: "manual", headers: BROWSER });
  return {
    shortUrl: partners.shortUrl,
    key,
    clickId: clickIdOf(first) ?? "",
    partnerId: partners.partnerId,
    sharerId: partners.sharerId,
    sharerToken: partners.sharerToken,
  };
}

/** Clicks and pixels come from readers' browsers: their user agent is judged on every hit. */
const BROWSER = {
  "user-agent":
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
};

/**
 * The share of a bare Fastify route's rate, per database and connections: issue 16's, and issue
 * 26's for the Ads API (a cache hit: the database is not its cost, so both databases alike).
 */
const TARGETS = {
  PostgreSQL: { redirect: [0.4, 0.6], pixel: [0.4, 0.6], ads: [0.6, 0.6] },
  PGlite: { redirect: [0.35, 0.35], pixel: [0.35, 0.35], ads: [0.6, 0.6] },
} as const;
/** p99 at 50 connections on PostgreSQL. */
const P99_MS = 30;
/**
 * Readers behind the balancer (the bench's server trusts one proxy hop), each request from the
 * next address of RFC 2544's benchmarking range 198.18.0.0/15: 512 networks of 256 readers, so
 * clicks meet every rule a real spread of readers does, the per-network allowance included.
 */
export function readersFromManyNetworks() {
  let reader = 0;
  return () => {
    reader = (reader + 1) % 0x20000;
    const address = `198.${18 + (reader >> 16)}.${(reader >> 8) & 255}.${reader & 255}`;
    return { "x-forwarded-for": address };
  };
}

/** A shorter run while working on one route: BENCH_ROUTES=ads (of redirect, pixel, ads). */
const ROUTES = new Set((process.env.BENCH_ROUTES ?? "redirect,pixel,ads").split(","));

export async function benchTracking(database: "PostgreSQL" | "PGlite", buddy: BuddyProcess) {
  const setup = await setUpForBench(buddy);
  const adsUrl = `${buddy.origin}/api/ads?format=json`;
  const apiKey = { "x-api-key": setup.key };
  const sample = await (await fetch(adsUrl, { headers: apiKey })).text();
  const baseline = await startBaseline(sample);
  // Every pixel hit records a new lead: click ids as the server issues them, a fresh one each time
  // (what a repeat costs is not the target).
  const clickIds = createClickIds(buddy.appSecret);
  const pixelPath = () =>
    `/api/marketing/conversion/${clickIds.issue(setup.sharerId, setup.partnerId, Date.now())}?type=signup&org=${setup.partnerId}`;
  const pixelUrl = `${buddy.origin}${pixelPath()}`;
  let pixels = 0;
  let redirects = 1;
  try {
    for (const [index, connections] of [50, 200].entries()) {
      const targets = TARGETS[database];
      const p99 = database === "PostgreSQL" && connections === 50 ? P99_MS : null;
      const routes = [
        {
          key: "redirect",
          name: "short link → 302 (click stored)",
          url: setup.shortUrl,
          headers: BROWSER,
          base: "/redirect",
          label: "bare 302",
          min: targets.redirect[index] as number,
          nextHeaders: readersFromManyNetworks(),
        },
        {
          key: "pixel",
          name: "conversion pixel (lead stored)",
          url: pixelUrl,
          base: "/gif",
          label: "bare GIF",
          min: targets.pixel[index] as number,
          headers: BROWSER,
          nextPath: pixelPath,
        },
        {
          key: "ads",
          name: "GET /api/ads json",
          url: adsUrl,
          base: "/json",
          label: "bare JSON",
          min: targets.ads[index] as number,
          headers: apiKey,
        },
      ];
      for (const target of routes.filter((route) => ROUTES.has(route.key))) {
        const result = await compare(`${baseline.origin}${target.base}`, target.url, connections, {
          headers: target.headers,
          // Every click the server stored must be among the 3xx counted here.
          drain: target.base === "/redirect" || target.base === "/gif",
          nextPath: "nextPath" in target ? target.nextPath : undefined,
          nextHeaders: "nextHeaders" in target ? target.nextHeaders : undefined,
          pids: { base: baseline.pid, target: buddy.pid },
        });
        if (target.base === "/redirect") redirects += result.threeXX;
        if (target.base === "/gif") pixels += result.twoXX;
        const ok = result.errors === 0 && result.ratio >= target.min && (p99 === null || result.p99 < p99);
        record({
          database,
          name: target.name,
          connections,
          rps: result.rps,
          p50: result.p50,
          p99: result.p99,
          ratio: `${(result.ratio * 100).toFixed(1)} % of ${target.label} (${result.baseRps}/s)`,
          cpu: result.cpuUs
            ? `${result.cpuUs.target.toFixed(1)} (bare ${result.cpuUs.base.toFixed(1)})`
            : "—",
          target: `≥ ${Math.round(target.min * 100)} %${p99 ? `, p99 < ${p99} ms` : ""}`,
          ok,
        });
      }
    }
  } finally {
    baseline.stop();
  }
  return {
    redirects,
    pixels,
    sharerId: setup.sharerId,
    partnerId: setup.partnerId,
    sharerToken: setup.sharerToken,
  };
}
