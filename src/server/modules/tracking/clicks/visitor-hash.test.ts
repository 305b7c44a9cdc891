import { hash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../../db/client";
import { visitorSalts } from "../../../db/schema";
import { hmac } from "../../../lib/tokens";
import { openTestDatabase } from "../../../testing/database";
import { createVisitorHasher, createVisitorSalts } from "./visitor-hash";

const at = (iso: string) => Date.parse(iso);
const UA = "Mozilla/5.0";

let database: Database;
let now: number;
const clock = () => now;
const started: Array<ReturnType<typeof createVisitorSalts>> = [];
async function startSalts() {
  const salts = createVisitorSalts(database.db, { clock });
  await salts.start();
  started.push(salts);
  return salts;
}
const storedDays = async () =>
  (await database.db.select({ day: visitorSalts.day }).from(visitorSalts)).map((row) => row.day).sort();

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());
// Each test starts from an empty table on the same Monday.
beforeEach(async () => {
  await database.db.delete(visitorSalts);
  now = at("2026-11-24T10:00:00.000Z");
});
afterEach(() => {
  for (const salts of started.splice(0)) salts.stop();
});

describe("visitor hash", () => {
  it("recognises a visitor within a UTC day and never across days", async () => {
    const salts = await startSalts();
    const hashVisitor = createVisitorHasher(salts);
    const morning = hashVisitor("192.0.2.1", UA, at("2026-11-24T00:00:00.000Z"));
    const night = hashVisitor("192.0.2.1", UA, at("2026-11-24T23:59:59.999Z"));
    const nextDay = hashVisitor("192.0.2.1", UA, at("2026-11-25T00:00:00.000Z"));
    expect(night).toBe(morning);
    expect(nextDay).not.toBe(morning);
    expect(hashVisitor("192.0.2.1", UA, at("2026-11-24T12:00:00.000Z"))).toBe(morning);
  });

  it("tells visitors apart by address and user agent, and holds no raw address", async () => {
    const hashVisitor = createVisitorHasher(await startSalts());
    const a = hashVisitor("192.0.2.1", UA, now);
    expect(hashVisitor("192.0.2.2", UA, now)).not.toBe(a);
    expect(hashVisitor("192.0.2.1", "curl/8", now)).not.toBe(a);
    expect(a).toMatch(/^[\w-]{32}$/);
    expect(a).not.toContain("192");
  });

  it("salts with a random value stored for the day, not one anybody could derive from APP_SECRET", async () => {
    const hashVisitor = createVisitorHasher(await startSalts());
    const [row] = await database.db.select().from(visitorSalts).where(eq(visitorSalts.day, "2026-11-24"));
    expect(row?.salt).toMatch(/^[\w-]{43}$/);
    const expected = hash("sha256", `${row?.salt}|192.0.2.1|${UA}`, "base64url").slice(0, 32);
    expect(hashVisitor("192.0.2.1", UA, now)).toBe(expected);
    // The former salt, HMAC(APP_SECRET, day), is not it.
    expect(row?.salt).not.toBe(hmac("test-secret-test-secret-test-secret-0123", "visitor-salt:2026-11-24"));

    // Another database (another deployment with the same secret): another salt.
    const elsewhere = await openTestDatabase();
    const otherSalts = createVisitorSalts(elsewhere.db, { clock });
    try {
      await otherSalts.start();
      expect(createVisitorHasher(otherSalts)("192.0.2.1", UA, now)).not.toBe(
        hashVisitor("192.0.2.1", UA, now),
      );
    } finally {
      otherSalts.stop();
      await elsewhere.close();
    }
  });

  it("gives instances sharing a database the same salt, even when they start at the same moment", async () => {
    const [first, second] = await Promise.all([startSalts(), startSalts()]);
    if (!first || !second) throw new Error("not started");
    expect(createVisitorHasher(first)("192.0.2.1", UA, now)).toBe(
      createVisitorHasher(second)("192.0.2.1", UA, now),
    );
    // A third instance that meets a day it has not loaded uses its own salt at once, then the shared one.
    const third = createVisitorSalts(database.db, { clock });
    started.push(third);
    const provisional = createVisitorHasher(third)("192.0.2.1", UA, now);
    expect(provisional).not.toBe(createVisitorHasher(first)("192.0.2.1", UA, now));
    await third.refresh();
    expect(createVisitorHasher(third)("192.0.2.1", UA, now)).toBe(
      createVisitorHasher(first)("192.0.2.1", UA, now),
    );
  });

  it("has tomorrow's salt ready before midnight and forgets a past day's salt", async () => {
    const salts = await startSalts();
    const hashVisitor = createVisitorHasher(salts);
    expect(await storedDays()).toEqual(["2026-11-24", "2026-11-25"]);
    expect(salts.heldDays()).toEqual(["2026-11-24", "2026-11-25"]);
    const monday = hashVisitor("192.0.2.1", UA, now);

    // Tuesday: Monday's salt is yesterday's, still kept (late clicks, clocks a little apart).
    now = at("2026-11-25T00:30:00.000Z");
    await salts.refresh();
    expect(await storedDays()).toEqual(["2026-11-24", "2026-11-25", "2026-11-26"]);
    const tuesday = hashVisitor("192.0.2.1", UA, now);
    expect(tuesday).not.toBe(monday);

    // Wednesday: Monday's salt is gone from the database and from memory.
    now = at("2026-11-26T00:30:00.000Z");
    await salts.refresh();
    expect(await storedDays()).toEqual(["2026-11-25", "2026-11-26", "2026-11-27"]);
    expect(salts.heldDays()).toEqual(["2026-11-25", "2026-11-26", "2026-11-27"]);
    expect(hashVisitor("192.0.2.1", UA, now)).not.toBe(tuesday);
    // A Monday hash asked for now matches nothing stored that Monday, and brings no salt back.
    expect(hashVisitor("192.0.2.1", UA, at("2026-11-24T10:00:00.000Z"))).not.toBe(monday);
    await salts.refresh();
    expect(await storedDays()).not.toContain("2026-11-24");
    expect(salts.heldDays()).not.toContain("2026-11-24");
  });
});
