import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../../db/client";
import { conversions, pairDailyStats } from "../../../db/schema";
import { openTestDatabase } from "../../../testing/database";
import { createClickIds } from "../clicks/click-id";
import { type StoredConversion, storeConversions } from "./conversion-store";
import { createConversionRecorder } from "./conversions.service";

let database: Database;
const clickIds = createClickIds("c".repeat(40));
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

function setUp() {
  const recorder = createConversionRecorder({ db: database.db, clickIds });
  const source = randomUUID();
  const target = randomUUID();
  const click = () => clickIds.issue(source, target, Date.now());
  const leadsOf = async () =>
    (await database.db.select().from(pairDailyStats))
      .filter((row) => row.sourceOrgId === source && row.targetOrgId === target)
      .reduce((sum, row) => sum + row.leads, 0);
  const rowsOf = async () =>
    (await database.db.select().from(conversions)).filter((row) => row.targetOrgId === target);
  return { recorder, source, target, click, leadsOf, rowsOf };
}

/** The address a pixel comes from; these recorders have no allowance to charge. */
const CLIENT = "192.0.2.1";

describe("conversions", () => {
  it("commit a pixel's lead before answering and store it once, however often it fires", async () => {
    const { recorder, target, click, leadsOf, rowsOf } = setUp();
    const clickId = click();
    await Promise.all(
      Array.from({ length: 5 }, () =>
        recorder.recordPixel({ organizationId: target, clickId, type: "signup" }, CLIENT),
      ),
    );
    expect(await rowsOf()).toHaveLength(1);
    expect(await leadsOf()).toBe(1);
    await recorder.recordPixel({ organizationId: target, clickId, type: "purchase", value: 49.5 }, CLIENT);
    const rows = await rowsOf();
    expect(rows.map((row) => [row.type, row.value]).sort()).toEqual([
      ["purchase", 49.5],
      ["signup", null],
    ]);
    expect(await leadsOf()).toBe(2);
  });

  it("tell a server call that a lead the pixel recorded first is a repeat", async () => {
    const { recorder, target, click, leadsOf } = setUp();
    const clickId = click();
    await recorder.recordPixel({ organizationId: target, clickId, type: "trial" }, CLIENT);
    const result = await recorder.record({ organizationId: target, clickId, type: "trial" });
    expect(result.duplicate).toBe(true);
    expect(await leadsOf()).toBe(1);
  });

  it("count a lead stored twice once", async () => {
    const { source, target, click, leadsOf } = setUp();
    const row: StoredConversion = {
      id: randomUUID(),
      click_id: click(),
      type: "signup",
      value: null,
      metadata: { plan: "pro" },
      source_org_id: source,
      target_org_id: target,
      created_at: new Date().toISOString(),
    };
    expect(await storeConversions(database.db, [row, { ...row, id: randomUUID() }])).toBe(1);
    expect(await storeConversions(database.db, [row])).toBe(0);
    expect(await leadsOf()).toBe(1);
  });

  it("refuse a click id made for another organization, or made up, and record nothing", async () => {
    const { recorder, click, rowsOf, target } = setUp();
    for (const [organizationId, clickId] of [
      [randomUUID(), click()],
      [target, "made-up-click-id-1234"],
    ] as const) {
      await expect(
        recorder.recordPixel({ organizationId, clickId, type: "signup" }, CLIENT),
      ).rejects.toMatchObject({
        statusCode: 404,
      });
      await expect(recorder.record({ organizationId, clickId, type: "signup" })).rejects.toMatchObject({
        statusCode: 404,
      });
    }
    expect(await rowsOf()).toHaveLength(0);
  });
});
