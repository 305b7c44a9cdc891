import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickEvents, visitorSalts } from "../../../db/schema";
import { createOrganization, createTestApp, type TestApp } from "../../../testing/app";

// Two instances of the app on one database, as two processes behind a load balancer would be.
let a: TestApp;
let b: TestApp;
let trackedPath: string;

const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({ database: a.database });
  const sharer = await createOrganization(a, "saltsharer");
  const advertiser = await createOrganization(a, "saltadvertiser");
  await a.app.inject({
    method: "POST",
    url: "/api/relationships",
    headers: sharer.headers,
    payload: { organizationId: advertiser.organizationId, type: "complement" },
  });
  await a.app.inject({
    method: "POST",
    url: "/api/marketing/collateral",
    headers: advertiser.headers,
    payload: {
      name: "Salted",
      description: "Test",
      ctaText: "Go",
      ctaUrl: "https://saltadvertiser.example/go",
      status: "active",
    },
  });
  const list = await a.app.inject({
    url: `/api/marketing/collateral?organizationId=${advertiser.organizationId}`,
    headers: sharer.headers,
  });
  const url = new URL(list.json()[0].trackedUrl);
  trackedPath = url.pathname + url.search;
});
afterAll(async () => {
  await b.close();
  await a.close();
});

async function clickOn(t: TestApp, ip: string) {
  const response = await t.app.inject({
    url: trackedPath,
    headers: { "user-agent": BROWSER },
    remoteAddress: ip,
  });
  expect(response.statusCode).toBe(302);
  return new URL(response.headers.location as string).searchParams.get("bclickid") ?? "";
}

describe("visitor salt shared by instances", () => {
  it("hashes the same address and user agent alike on two instances of one database, and stores no address", async () => {
    const ids = [
      await clickOn(a, "198.51.100.77"),
      await clickOn(b, "198.51.100.77"),
      await clickOn(b, "198.51.100.78"),
    ];
    const rows = await a.database.db.select().from(clickEvents).where(inArray(clickEvents.id, ids));
    const hashOf = (id: string) => rows.find((row) => row.id === id)?.visitorHash;
    expect(hashOf(ids[0] ?? "")).toMatch(/^[\w-]{32}$/);
    expect(hashOf(ids[1] ?? "")).toBe(hashOf(ids[0] ?? ""));
    expect(hashOf(ids[2] ?? "")).not.toBe(hashOf(ids[0] ?? ""));
    expect(JSON.stringify(rows)).not.toContain("198.51.100");
    // One salt per day for both instances: today's and tomorrow's, nothing older.
    const days = (await a.database.db.select({ day: visitorSalts.day }).from(visitorSalts)).map((r) => r.day);
    const today = new Date().toISOString().slice(0, 10);
    expect(days).toContain(today);
    expect(days.every((day) => day >= today)).toBe(true);
    expect(days.length).toBeLessThanOrEqual(2);
  });
});
