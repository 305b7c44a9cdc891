// Tracking hot paths against bare Fastify answering the same kind of response: a 302, a GIF, JSON.
import { readFileSync } from "node:fs";
import path from "node:path";
import { createClickIds } from "../src/server/modules/tracking/clicks/click-id";
import type { BuddyProcess } from "../src/server/test-buddy-process";
import { compare, rows, startBaseline } from "./harness";

async function call<T>(buddy: BuddyProcess, path: string, token: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${buddy.origin}${path}`, {
    ...init,
    headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...init.headers },
  });
  return (await response.json()) as T;
}

/** Two Buddies, an active ad, a short link, a click and an API key: what the hot paths need. */
export async function setUpForBench(buddy: BuddyProcess) {
  const sharer = await buddy.createOrganization("tracksharer", "An analytics tool for benchmarks");
  const partner = await buddy.createOrganization("trackpartner", "A help desk for benchmarks");
  const sharerId = (await call<{ user: { organizationId: string } }>(buddy, "/api/me", sharer)).user
    .organizationId;
  const partnerId = (await call<{ user: { organizationId: string } }>(buddy, "/api/me", partner)).user
    .organizationId;
  for (const [token, target] of [
    [sharer, partnerId],
    [partner, sharerId],
  ] as const) {
    await call(buddy, "/api/relationships", token, {
      method: "POST",
      body: JSON.stringify({ organizationId: target, type: "complement" }),
    });
  }
  await call(buddy, "/api/marketing/collateral", partner, {
    method: "POST",
    body: JSON.stringify({
      name: "Bench ad",
      description: "An ad",
      ctaText: "Go",
      ctaUrl: "https://trackpartner.bench.example/go?utm_source=x",
      status: "active",
    }),
  });
  const [item] = await call<Array<{ trackedUrl: string }>>(
    buddy,
    `/api/marketing/collateral?organizationId=${partnerId}`,
    sharer,
  );
  const { shortUrl } = await call<{ shortUrl: string }>(buddy, "/api/short-url", sharer, {
    method: "POST",
    body: JSON.stringify({ longUrl: item?.trackedUrl }),
  });
  const { key } = await call<{ key: string }>(buddy, "/api/api-keys", sharer, {
    method: "POST",
    body: JSON.stringify({ name: "bench" }),
  });
  const first = await fetch(shortUrl, {
    redirect: "manual",
    headers: { "user-agent": "Mozilla/5.0 Chrome/130" },
  });
  const clickId = new URL(first.headers.get("location") ?? "").searchParams.get("bclickid") ?? "";
  return { shortUrl, key, clickId, partnerId, sharerId, sharerToken: sharer };
}

/** Clicks and pixels come from readers' browsers: their user agent is judged on every hit. */
const BROWSER = {
  "user-agent":
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
};

export async function benchTracking(database: string, buddy: BuddyProcess) {
  const setup = await setUpForBench(buddy);
  const adsUrl = `${buddy.origin}/api/ads?format=json`;
  const apiKey = { "x-api-key": setup.key };
  const sample = await (await fetch(adsUrl, { headers: apiKey })).text();
  const baseline = await startBaseline(sample);
  // Every pixel hit records a new lead: click ids as the server issues them, a fresh one each time
  // (what a repeat costs is not the target).
  const clickIds = createClickIds(readFileSync(path.join(buddy.dataDir, "app-secret"), "utf8").trim());
  const pixelPath = () =>
    `/api/marketing/conversion/${clickIds.issue(setup.sharerId, setup.partnerId, Date.now())}?type=signup&org=${setup.partnerId}`;
  const pixelUrl = `${buddy.origin}${pixelPath()}`;
  let pixels = 0;
  let redirects = 1;
  try {
    for (const connections of [50, 200]) {
      const targets = [
        {
          name: "short link → 302 (click stored)",
          url: setup.shortUrl,
          headers: BROWSER,
          base: "/redirect",
          label: "bare 302",
          min: 0.5,
          p99: connections === 50 ? 30 : null,
        },
        {
          name: "conversion pixel",
          url: pixelUrl,
          base: "/gif",
          label: "bare GIF",
          min: 0.5,
          p99: null,
          headers: BROWSER,
          nextPath: pixelPath,
        },
        {
          name: "GET /api/ads json",
          url: adsUrl,
          base: "/json",
          label: "bare JSON",
          min: 0.6,
          p99: null,
          headers: apiKey,
        },
      ];
      for (const target of targets) {
        const result = await compare(`${baseline.origin}${target.base}`, target.url, connections, {
          headers: target.headers,
          // Every click the server stored must be among the 3xx counted here.
          drain: target.base === "/redirect" || target.base === "/gif",
          nextPath: "nextPath" in target ? target.nextPath : undefined,
          pids: { base: baseline.pid, target: buddy.pid },
        });
        if (target.base === "/redirect") redirects += result.threeXX;
        if (target.base === "/gif") pixels += result.twoXX;
        const ok =
          result.errors === 0 &&
          result.ratio >= target.min &&
          (target.p99 === null || result.p99 < target.p99);
        rows.push({
          database,
          name: target.name,
          connections,
          rps: result.rps,
          p50: result.p50,
          p99: result.p99,
          ratio: `${(result.ratio * 100).toFixed(1)} % of ${target.label} (${result.baseRps}/s)`,
          cpu: result.cpuUs
            ? `${result.cpuUs.target.toFixed(1)}${result.cpuUs.withLater > result.cpuUs.target * 1.1 ? ` +${(result.cpuUs.withLater - result.cpuUs.target).toFixed(1)} later` : ""} (bare ${result.cpuUs.base.toFixed(1)})`
            : "—",
          target: `≥ ${target.min * 100} %${target.p99 ? `, p99 < ${target.p99} ms` : ""}`,
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
