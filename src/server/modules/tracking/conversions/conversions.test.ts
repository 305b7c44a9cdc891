import { randomUUID } from "node:crypto";
import { DAY_MS } from "@shared/days";
import type { ConversionType } from "@shared/tracking";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, rowsOf } from "../../../db/client";
import { conversions, customerBindings, pairDailyRevenue, pairDailyStats } from "../../../db/schema";
import { openTestDatabase, pgliteLacks } from "../../../testing/database";
import { createClickIds } from "../clicks/click-id";
import { type IncomingConversion, storeConversions } from "./conversion-store";
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
  const click = (at = Date.now()) => clickIds.issue(source, target, at);
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
    // A lead, nothing more: whatever else the input object holds is never read (CONTRACT §5).
    const forged = {
      organizationId: target,
      clickId,
      type: "purchase",
      value: 49.5,
      customerId: "cus_x",
    } as const;
    await recorder.recordPixel(forged, CLIENT);
    const rows = await rowsOf();
    expect(rows.map((row) => [row.type, row.valueMinor, row.currency, row.customerId]).sort()).toEqual([
      ["purchase", null, null, null],
      ["signup", null, null, null],
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

  it("count a lead stored twice once, and answer each row with its outcome", async () => {
    const { source, target, click, leadsOf } = setUp();
    const row: IncomingConversion = {
      id: randomUUID(),
      click_id: click(),
      customer_id: null,
      type: "signup",
      value_minor: null,
      currency: null,
      event_id: null,
      metadata: { plan: "pro" },
      binds_by: null,
      channel: "key",
      payment_intent_id: null,
      source_org_id: source,
      target_org_id: target,
      created_at: new Date().toISOString(),
    };
    const first = await storeConversions(database.db, [row, { ...row, id: randomUUID() }]);
    expect(first.stored).toBe(1);
    expect(first.results).toEqual([
      { outcome: "stored", id: row.id },
      { outcome: "duplicate", id: row.id },
    ]);
    const again = await storeConversions(database.db, [{ ...row, id: randomUUID() }]);
    expect(again).toEqual({ stored: 0, results: [{ outcome: "duplicate", id: row.id }] });
    expect(await leadsOf()).toBe(1);
  });

  it("store renewals with distinct event ids beside the lead, summing their revenue per currency", async () => {
    const { recorder, source, target, click, leadsOf, rowsOf } = setUp();
    const clickId = click();
    const purchase = { organizationId: target, clickId, type: "purchase" as const };
    const first = await recorder.record({ ...purchase, value: 49.99, eventId: "inv_1" });
    const renewal = await recorder.record({ ...purchase, value: 49.99, eventId: "inv_2" });
    const yen = await recorder.record({ ...purchase, value: 5000, currency: "JPY", eventId: "inv_3" });
    expect([first.duplicate, renewal.duplicate, yen.duplicate]).toEqual([false, false, false]);
    // No event id: a repeat of the click's purchase, whatever the first carried.
    expect(await recorder.record({ ...purchase, value: 10 })).toEqual({ id: first.id, duplicate: true });
    expect(await recorder.record({ ...purchase, eventId: "inv_2" })).toEqual({
      id: renewal.id,
      duplicate: true,
    });
    expect(await rowsOf()).toHaveLength(3);
    expect(await leadsOf()).toBe(1);
    const revenue = (await database.db.select().from(pairDailyRevenue))
      .filter((row) => row.sourceOrgId === source && row.targetOrgId === target)
      .map((row) => [row.currency, row.valueMinor, row.conversions])
      .sort();
    expect(revenue).toEqual([
      ["JPY", 5000, 1],
      ["USD", 9998, 2],
    ]);
  });

  it("attribute a customer's later conversions to the click it was first bound to", async () => {
    const { recorder, source, target, click, rowsOf } = setUp();
    const [firstClick, secondClick] = [click(), click()];
    await recorder.record({
      organizationId: target,
      clickId: firstClick,
      customerId: "cus_1",
      type: "signup",
    });
    // The first binding wins: this click keeps its own signup, the customer stays with the first.
    await recorder.record({
      organizationId: target,
      clickId: secondClick,
      customerId: "cus_1",
      type: "signup",
    });
    const trial = await recorder.record({ organizationId: target, customerId: "cus_1", type: "trial" });
    expect(trial.duplicate).toBe(false);
    const rows = await rowsOf();
    expect(rows.find((row) => row.id === trial.id)).toMatchObject({
      clickId: firstClick,
      sourceOrgId: source,
      customerId: "cus_1",
    });
    await expect(
      recorder.record({ organizationId: target, customerId: "cus_never", type: "trial" }),
    ).rejects.toMatchObject({
      statusCode: 404,
    });
    // Another organization never reaches this binding.
    await expect(
      recorder.record({ organizationId: randomUUID(), customerId: "cus_1", type: "trial" }),
    ).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  describe("a customer both the key and Stripe bind", () => {
    /** A Checkout as integrations/stripe-events.ts records it: its event id, named in its metadata. */
    const checkout = (target: string, clickId: string, customerId: string, event: string) => ({
      organizationId: target,
      clickId,
      customerId,
      type: "purchase" as const,
      valueMinor: 4999,
      currency: "USD",
      eventId: event,
      metadata: { stripe: { event, checkoutSession: `cs_${event}` } },
      channel: "stripe" as const,
    });
    /** A server call with the key: a signup (or `type`) binding `customerId` to `clickId`. */
    const keyed = (target: string, clickId: string, customerId: string, type: ConversionType = "signup") => ({
      organizationId: target,
      clickId,
      customerId,
      type,
      channel: "key" as const,
    });
    const boundClick = async (target: string, customerId: string) =>
      (await database.db.select().from(customerBindings)).find(
        (row) => row.organizationId === target && row.customerId === customerId,
      )?.clickId;

    it("the key's binding replaces the one Stripe made, and its later conversions follow it", async () => {
      const { recorder, target, click, rowsOf } = setUp();
      const [stripeClick, keyedClick, laterClick] = [click(), click(), click()];
      await recorder.record(checkout(target, stripeClick, "cus_both", "evt_both_1"));
      expect(await boundClick(target, "cus_both")).toBe(stripeClick);
      const signup = await recorder.record(keyed(target, keyedClick, "cus_both"));
      expect(signup.duplicate).toBe(false);
      expect(await boundClick(target, "cus_both")).toBe(keyedClick);
      const trial = await recorder.record({
        organizationId: target,
        customerId: "cus_both",
        type: "trial",
      });
      expect((await rowsOf()).find((row) => row.id === trial.id)?.clickId).toBe(keyedClick);
      // Once the key's, the first binding wins again: neither Stripe nor the key moves it.
      await recorder.record(checkout(target, laterClick, "cus_both", "evt_both_2"));
      await recorder.record(keyed(target, laterClick, "cus_both", "upgrade"));
      expect(await boundClick(target, "cus_both")).toBe(keyedClick);
    });

    it("Stripe never replaces the key's binding, nor another of its own", async () => {
      const { recorder, target, click } = setUp();
      const [keyedClick, stripeClick, otherStripeClick] = [click(), click(), click()];
      await recorder.record(keyed(target, keyedClick, "cus_key"));
      await recorder.record(checkout(target, stripeClick, "cus_key", "evt_key_1"));
      expect(await boundClick(target, "cus_key")).toBe(keyedClick);
      await recorder.record(checkout(target, stripeClick, "cus_stripe", "evt_key_2"));
      await recorder.record(checkout(target, otherStripeClick, "cus_stripe", "evt_key_3"));
      expect(await boundClick(target, "cus_stripe")).toBe(stripeClick);
    });

    it("in one batch, the key's binding wins whichever arrived first", async () => {
      const { recorder, target, click } = setUp();
      const [stripeClick, keyedClick] = [click(), click()];
      await Promise.all([
        recorder.record(checkout(target, stripeClick, "cus_batch", "evt_batch_1")),
        recorder.record(keyed(target, keyedClick, "cus_batch")),
      ]);
      expect(await boundClick(target, "cus_batch")).toBe(keyedClick);
    });
  });

  it("bind and attribute within one batch: the signup with its click and the customer's trial together", async () => {
    const { recorder, target, click, rowsOf } = setUp();
    const clickId = click();
    const [signup, trial] = await Promise.all([
      recorder.record({ organizationId: target, clickId, customerId: "cus_same_turn", type: "signup" }),
      recorder.record({ organizationId: target, customerId: "cus_same_turn", type: "trial" }),
    ]);
    expect([signup.duplicate, trial.duplicate]).toEqual([false, false]);
    expect((await rowsOf()).find((row) => row.id === trial.id)?.clickId).toBe(clickId);
  });

  it("store one conversion for two requests at once with one event id", async () => {
    const { recorder, target, click, rowsOf } = setUp();
    const clickId = click();
    const results = await Promise.all(
      [click(), clickId].map((id) =>
        recorder.record({
          organizationId: target,
          clickId: id,
          type: "purchase",
          value: 5,
          eventId: "evt_once",
        }),
      ),
    );
    expect(results.filter((result) => !result.duplicate)).toHaveLength(1);
    expect(new Set(results.map((result) => result.id)).size).toBe(1);
    expect(await rowsOf()).toHaveLength(1);
  });

  it("store one conversion when two instances record one event id at the same moment", async () => {
    const { target, click, rowsOf } = setUp();
    const other = createConversionRecorder({ db: database.db, clickIds });
    const { recorder } = setUp();
    const input = {
      organizationId: target,
      type: "purchase" as const,
      value: 12,
      eventId: "evt_two_instances",
    };
    const results = await Promise.all([
      recorder.record({ ...input, clickId: click() }),
      other.record({ ...input, clickId: click() }),
    ]);
    expect(results.filter((result) => result.duplicate)).toHaveLength(1);
    expect(new Set(results.map((result) => result.id)).size).toBe(1);
    expect(await rowsOf()).toHaveLength(1);
  });

  it("does not count a conversion whose customer was bound over a year before", async () => {
    const { recorder, target, click } = setUp();
    const longAgo = new Date(Date.now() - 366 * DAY_MS);
    const signup = await recorder.record({
      organizationId: target,
      clickId: click(longAgo.getTime()),
      customerId: "cus_old",
      type: "signup",
      now: longAgo,
    });
    expect(signup.duplicate).toBe(false);
    await expect(
      recorder.record({ organizationId: target, customerId: "cus_old", type: "purchase" }),
    ).rejects.toMatchObject({
      statusCode: 404,
    });
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

describe.skipIf(pgliteLacks("a second connection to deadlock with"))("a batch in a deadlock", () => {
  const waitingOnLocks = async () => {
    const result = await database.db.execute(
      sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`,
    );
    return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
  };

  it("runs again when PostgreSQL makes it the victim, and answers what the other transaction stored", async () => {
    const { recorder, source, target, click } = setUp();
    // The batch inserts its leads in click id order: the first takes e1, the second waits for e2.
    const [first, second] = [click(), click()].sort();
    const other = (clickId: string, eventId: string) => ({
      id: randomUUID(),
      clickId,
      type: "purchase" as const,
      eventId,
      isLead: false,
      sourceOrgId: source,
      targetOrgId: target,
    });
    const [e1, e2] = [other(click(), "evt_deadlock_1"), other(click(), "evt_deadlock_2")];
    let batch: Promise<unknown[]> | undefined;
    await database.db.transaction(async (tx) => {
      // This side waits long before looking for a deadlock: the batch is the one to find it.
      await tx.execute(sql`set local deadlock_timeout = '30s'`);
      await tx.insert(conversions).values(e2);
      batch = Promise.all([
        recorder.record({
          organizationId: target,
          clickId: first as string,
          type: "purchase",
          eventId: e1.eventId,
        }),
        recorder.record({
          organizationId: target,
          clickId: second as string,
          type: "purchase",
          eventId: e2.eventId,
        }),
      ]);
      const deadline = Date.now() + 10_000;
      while ((await waitingOnLocks()) === 0) {
        if (Date.now() > deadline) throw new Error("the batch never waited for e2");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Waits for the batch's e1 until PostgreSQL ends the batch's attempt as the deadlock's victim.
      await tx.insert(conversions).values(e1);
    });
    expect(await batch).toEqual([
      { id: e1.id, duplicate: true },
      { id: e2.id, duplicate: true },
    ]);
  });
});
