import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickEvents, visitorSalts } from "../../../db/schema";
import { createTestApp, type TestApp } from "../../../testing/app";
import { createSharedAds } from "../../../testing/buddies";

// Two instances of the app on one database, as two processes behind a load balancer would be.
let a: TestApp;
let b: TestApp;
let trackedPath: string;

const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({ database: a.database, mail: a.mail });
  const { trackedUrls } = await createSharedAds(
    a,
    ["saltsharer", "saltadvertiser"],
    [{ name: "Salted", description: "Test", ctaText: "Go", ctaUrl: "https://saltadvertiser.example/go" }],
  );
  const url = new URL(trackedUrls[0] as string);
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
