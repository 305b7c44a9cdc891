import { DAY_MS } from "@shared/days";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../db/client";
import {
  appState,
  clickEvents,
  customerBindings,
  jobs,
  notificationsSent,
  oneTimeTokens,
  securityLog,
  sessions,
  teamInvitations,
  webhookAttempts,
  webhookEndpoints,
} from "../db/schema";
import { clickTimeOf } from "../modules/tracking/clicks/click-id";
import { type StoredClick, storeClicks } from "../modules/tracking/clicks/click-store";
import { createTestApp, type TestApp } from "../testing/app";
import { BROWSER_USER_AGENT, clickThrough, createBuddies } from "../testing/buddies";
import { pgliteLacks } from "../testing/database";
import { partitionAt, partitionedTable, partitionsOf } from "../testing/partitions";
import { LAST_SWEEP_KEY, type SweepReport } from "./data-lifecycle";
import { nextPeriod, partitionName, periodStart } from "./partition-periods";
import { PARTITIONS_AHEAD, type PartitionedTable } from "./partitioned-tables";
import { listPartitions } from "./partitions";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const daysAgo = (days: number, from = Date.now()) => new Date(from - days * DAY_MS);
const TABLES: PartitionedTable["table"][] = ["click_events", "jobs", "webhook_attempts", "security_log"];

type Buddies = Awaited<ReturnType<typeof createBuddies>>;

/** Clicks of the partner's link to the org's ad, stored as the tracker stores them, at `at`. */
function clicksAt(buddies: Buddies, at: Date, reasons: StoredClick["reason"][]): StoredClick[] {
  return reasons.map((reason) => ({
    id: `${crypto.randomUUID()}-old`,
    short_code: null,
    relationship_id: buddies.relationships.toOrg.id,
    collateral_id: buddies.ads.org.id,
    source_org_id: buddies.partner.organizationId,
    target_org_id: buddies.org.organizationId,
    occurred_at: at.toISOString(),
    method: "GET",
    visitor_hash: crypto.randomUUID(),
    user_agent: BROWSER_USER_AGENT,
    referrer_host: null,
    bot: reason === "bot",
    bot_reason: reason === "bot" ? "user agent" : null,
    duplicate: false,
    verified: reason === "counted",
    reason,
  }));
}

describe("partitions", () => {
  it("are made at start-up from the retention's edge to a week of days and three months ahead", async () => {
    const now = new Date();
    for (const name of TABLES) {
      const table = partitionedTable(name);
      const names = (await listPartitions(t.database.db, table)).map((partition) => partition.name);
      const current = periodStart(now, table.period);
      const edge = periodStart(new Date(now.getTime() - table.retentionMs), table.period);
      const ahead = nextPeriod(current, table.period, PARTITIONS_AHEAD[table.period]);
      for (const start of [edge, current, ahead]) {
        expect(names, name).toContain(partitionName(name, start, table.period));
      }
    }
  });

  it("take clicks on both sides of a month's boundary, each in its month and counted on its day", async () => {
    const buddies = await createBuddies(t, ["edgeorg", "edgepartner"]);
    const boundary = nextPeriod(periodStart(new Date(), "month"), "month");
    const before = clicksAt(buddies, new Date(boundary.getTime() - 1), ["counted"]);
    const after = clicksAt(buddies, boundary, ["counted", "counted"]);
    expect(await storeClicks(t.database.db, [...before, ...after])).toBe(3);
    // The same clicks again (a retried batch): stored once.
    expect(await storeClicks(t.database.db, [...before, ...after])).toBe(0);

    const stored = await partitionsOf(
      t.database.db,
      "click_events",
      [...before, ...after].map((click) => click.id),
    );
    const lastDay = new Date(boundary.getTime() - 1);
    expect(stored[before[0]?.id ?? ""]).toBe(
      partitionName("click_events", periodStart(lastDay, "month"), "month"),
    );
    for (const click of after)
      expect(stored[click.id]).toBe(partitionName("click_events", boundary, "month"));
    const days = rowsOf<{ day: string; clicks: number }>(
      await t.database.db.execute(sql`
        select day::text as day, clicks from pair_daily_stats
        where source_org_id = ${buddies.partner.organizationId} and target_org_id = ${buddies.org.organizationId}
          and day >= ${lastDay.toISOString().slice(0, 10)}::date
        order by day`),
    );
    expect(days).toEqual([
      { day: lastDay.toISOString().slice(0, 10), clicks: 1 },
      { day: boundary.toISOString().slice(0, 10), clicks: 2 },
    ]);
  });

  it("are found from a click id alone: the time it carries is its row's occurred_at", async () => {
    const buddies = await createBuddies(t, ["idtimeorg", "idtimepartner"]);
    const [row] = rowsOf<{ occurred_at: Date | string; carried: Date | string }>(
      await t.database.db.execute(sql`
        select occurred_at, ${clickTimeOf(sql`id`)} as carried from click_events where id = ${buddies.clickId}`),
    );
    expect(new Date(row?.carried ?? 0).getTime()).toBe(new Date(row?.occurred_at ?? 1).getTime());
    const [none] = rowsOf<{ carried: unknown }>(
      await t.database.db.execute(sql`select ${clickTimeOf(sql`${"short"}`)} as carried`),
    );
    expect(none?.carried).toBeNull();
  });

  it("are made ahead by each pass as time goes on, and the pass's end is recorded", async () => {
    // Its own database: a pass 120 days ahead drops what the other tests write.
    const log: { msg?: string; table?: string; partition?: string }[] = [];
    const own = await createTestApp({
      mail: t.mail,
      logger: { level: "info", stream: { write: (line: string) => log.push(JSON.parse(line)) } },
    });
    try {
      const report = await passesLater(own);
      // A line per partition made and dropped, naming its table and itself.
      const lines = (msg: string) =>
        log.filter((line) => line.msg === msg).map((line) => `${line.table} ${line.partition}`);
      for (const name of report.created)
        expect(lines("partition created")).toContain(`${name.replace(/_p\d.*$/, "")} ${name}`);
      expect(report.dropped.length).toBeGreaterThan(0);
      for (const name of report.dropped)
        expect(lines("partition dropped")).toContain(`${name.replace(/_p\d.*$/, "")} ${name}`);
    } finally {
      await own.close();
    }
  });
});

async function passesLater(t: TestApp): Promise<SweepReport> {
  {
    const later = new Date(Date.now() + 120 * DAY_MS);
    const report = await t.app.dataLifecycle.sweep(later);
    if (!report) throw new Error("the pass did not run");
    expect(report?.created).toContain(
      partitionName("click_events", nextPeriod(periodStart(later, "month"), "month", 3), "month"),
    );
    expect(report?.created).toContain(
      partitionName("jobs", nextPeriod(periodStart(later, "day"), "day", 7), "day"),
    );
    const [last] = await t.database.db.select().from(appState).where(eq(appState.key, LAST_SWEEP_KEY));
    expect(Date.now() - Date.parse(last?.value ?? "")).toBeLessThan(60_000);
    // Nothing is made twice.
    expect((await t.app.dataLifecycle.sweep(later))?.created).toEqual([]);
    return report;
  }
}

describe("retention", () => {
  it("drops a month of raw clicks past CLICK_RETENTION_DAYS, and every figure reads the same after", async () => {
    const buddies = await createBuddies(t, ["oldorg", "oldpartner"]);
    const longAgo = daysAgo(460);
    const partition = await partitionAt(t.database.db, "click_events", longAgo);
    const old = clicksAt(buddies, longAgo, ["counted", "counted", "counted", "bot", "repeat"]);
    expect(await storeClicks(t.database.db, old)).toBe(5);

    const figures = async () => {
      const answers: Record<string, unknown> = {};
      for (const side of [buddies.org, buddies.partner]) {
        for (const url of [
          "/api/metrics/clicks",
          "/api/metrics/leads",
          "/api/metrics/revenue",
          "/api/metrics/partners",
          "/api/metrics/daily",
          "/api/metrics/revenue/daily",
          "/api/metrics/clicks/uncounted?days=366",
          "/api/activity",
          "/api/relationships",
        ]) {
          const response = await t.app.inject({ url, headers: side.headers });
          expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
          answers[`${side.organizationId} ${url}`] = response.json();
        }
      }
      return answers;
    };
    const before = await figures();
    // The old clicks are in the roll-ups: the org's all-time clicks received count them.
    expect(before[`${buddies.org.organizationId} /api/metrics/clicks`]).toEqual({ sent: 0, received: 4 });

    const report = await t.app.dataLifecycle.sweep();
    expect(report?.dropped).toContain(partition);
    const left = await t.database.db
      .select({ id: clickEvents.id })
      .from(clickEvents)
      .where(
        inArray(
          clickEvents.id,
          old.map((click) => click.id),
        ),
      );
    expect(left).toEqual([]);
    expect(await figures()).toEqual(before);
  });

  it("drops attempts' days after 30 days, and jobs' days once every job in them finished a day ago", async () => {
    const buddies = await createBuddies(t, ["hookorg", "hookpartner"]);
    const [endpoint] = await t.database.db
      .insert(webhookEndpoints)
      .values({
        organizationId: buddies.org.organizationId,
        url: "https://hooks.example/retention",
        events: ["conversion.created"],
        secretSealed: "sealed",
        secretHint: "abcd",
      })
      .returning();
    const endpointId = endpoint?.id ?? "";
    const attempt = (id: string, createdAt: Date) => ({
      id,
      endpointId,
      messageId: `msg_${id}`,
      eventType: "webhook.test",
      attempt: 1,
      status: "succeeded" as const,
      durationMs: 1,
      createdAt,
    });
    await partitionAt(t.database.db, "webhook_attempts", daysAgo(32));
    await t.database.db
      .insert(webhookAttempts)
      .values([attempt("old-attempt", daysAgo(32)), attempt("new-attempt", daysAgo(29))]);
    const job = (id: string, status: "done" | "pending", createdAt: Date, finishedAt: Date | null) => ({
      id,
      kind: "webhook" as const,
      partitionKey: endpointId,
      payload: {},
      status,
      createdAt,
      finishedAt,
      runAt: new Date(Date.now() + 60 * 60_000),
    });
    for (const days of [4, 3]) await partitionAt(t.database.db, "jobs", daysAgo(days));
    await t.database.db.insert(jobs).values([
      job("old-job", "done", daysAgo(4), daysAgo(4)),
      // A retry still pending keeps its day, and the finished job beside it.
      job("waiting-job", "pending", daysAgo(3), null),
      job("done-beside-waiting", "done", daysAgo(3), daysAgo(3)),
      job("recent-job", "done", daysAgo(0.5), daysAgo(0.5)),
    ]);

    const report = await t.app.dataLifecycle.sweep();
    expect(report?.dropped).toEqual(
      expect.arrayContaining([
        partitionName("webhook_attempts", periodStart(daysAgo(32), "day"), "day"),
        partitionName("jobs", periodStart(daysAgo(4), "day"), "day"),
      ]),
    );
    expect(report?.dropped).not.toContain(partitionName("jobs", periodStart(daysAgo(3), "day"), "day"));
    const attempts = await t.database.db
      .select({ id: webhookAttempts.id })
      .from(webhookAttempts)
      .where(eq(webhookAttempts.endpointId, endpointId));
    expect(attempts.map((row) => row.id)).toEqual(["new-attempt"]);
    const left = await t.database.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(eq(jobs.partitionKey, endpointId));
    expect(left.map((row) => row.id).sort()).toEqual(["done-beside-waiting", "recent-job", "waiting-job"]);
  });

  it("lists the security log's 180 days, and drops a month once all of it is older", async () => {
    const buddies = await createBuddies(t, ["logorg", "logpartner"]);
    const organizationId = buddies.org.organizationId;
    for (const days of [215, 181]) await partitionAt(t.database.db, "security_log", daysAgo(days));
    await t.database.db.insert(securityLog).values([
      { organizationId, action: "sign_in", target: "gone", createdAt: daysAgo(215) },
      { organizationId, action: "sign_in", target: "old", createdAt: daysAgo(181) },
      { organizationId, action: "sign_in", target: "kept", createdAt: daysAgo(179) },
    ]);
    const listed = await t.app.inject({ url: "/api/security-log", headers: buddies.org.headers });
    const targets = listed.json().entries.map((entry: { target: string | null }) => entry.target);
    expect(targets).toContain("kept");
    expect(targets).not.toContain("old");
    expect(targets).not.toContain("gone");

    await t.app.dataLifecycle.sweep();
    const stored = await t.database.db
      .select({ target: securityLog.target })
      .from(securityLog)
      .where(eq(securityLog.organizationId, organizationId));
    const kept = stored.map((row) => row.target);
    expect(kept).toContain("kept");
    expect(kept).not.toContain("gone");
  });

  it("deletes sessions, one-time tokens and invitations 30 days after they end, and customer bindings after 365 days", async () => {
    const buddies = await createBuddies(t, ["roworg", "rowpartner"]);
    const userId = buddies.org.userId;
    await t.database.db.insert(sessions).values([
      { userId, tokenHash: "expired-long-ago", expiresAt: daysAgo(31) },
      { userId, tokenHash: "revoked-long-ago", expiresAt: daysAgo(-10), revokedAt: daysAgo(31) },
      { userId, tokenHash: "expired-lately", expiresAt: daysAgo(29) },
    ]);
    await t.database.db.insert(oneTimeTokens).values([
      {
        userId,
        purpose: "reset_password",
        tokenHash: "used-long-ago",
        expiresAt: daysAgo(-1),
        usedAt: daysAgo(31),
      },
      { userId, purpose: "reset_password", tokenHash: "expired-lately", expiresAt: daysAgo(29) },
    ]);
    const invitation = (email: string, expiresAt: Date, usedAt: Date | null) => ({
      organizationId: buddies.org.organizationId,
      email,
      tokenHash: `invitation-${email}`,
      expiresAt,
      usedAt,
    });
    await t.database.db
      .insert(teamInvitations)
      .values([
        invitation("used-long-ago@rows.example", daysAgo(-3), daysAgo(31)),
        invitation("expired-long-ago@rows.example", daysAgo(31), null),
        invitation("open@rows.example", daysAgo(-3), null),
      ]);
    await t.database.db.insert(notificationsSent).values([
      { key: `digest:${userId}:2026-01-05`, createdAt: daysAgo(31) },
      { key: `digest:${userId}:2026-11-23`, createdAt: daysAgo(6) },
      { key: `first-lead:${userId}:kept-for-good`, createdAt: daysAgo(400) },
    ]);
    const binding = (customerId: string, boundAt: Date) => ({
      organizationId: buddies.org.organizationId,
      customerId,
      clickId: buddies.clickId,
      sourceOrgId: buddies.partner.organizationId,
      boundAt,
    });
    await t.database.db
      .insert(customerBindings)
      .values([binding("cus_old", daysAgo(366)), binding("cus_recent", daysAgo(364))]);

    const report = await t.app.dataLifecycle.sweep();
    expect(report?.deletedRows).toMatchObject({
      sessions: 2,
      one_time_tokens: 1,
      team_invitations: 2,
      notifications_sent: 1,
      customer_bindings: 1,
    });
    const invited = await t.database.db
      .select({ email: teamInvitations.email })
      .from(teamInvitations)
      .where(eq(teamInvitations.organizationId, buddies.org.organizationId));
    expect(invited).toEqual([{ email: "open@rows.example" }]);
    const keys = (await t.database.db.select({ key: notificationsSent.key }).from(notificationsSent))
      .map((row) => row.key)
      .filter((key) => key.includes(userId));
    expect(keys.sort()).toEqual([`digest:${userId}:2026-11-23`, `first-lead:${userId}:kept-for-good`]);
    const hashes = (await t.database.db.select().from(sessions).where(eq(sessions.userId, userId))).map(
      (row) => row.tokenHash,
    );
    expect(hashes).toContain("expired-lately");
    expect(hashes).not.toContain("expired-long-ago");
    expect(hashes).not.toContain("revoked-long-ago");
    const bindings = await t.database.db
      .select({ customerId: customerBindings.customerId })
      .from(customerBindings)
      .where(eq(customerBindings.organizationId, buddies.org.organizationId));
    expect(bindings.map((row) => row.customerId)).toEqual(["cus_recent"]);
  });
});

describe("one sweeper at a time", () => {
  it("of two instances racing for a pass, one runs it and the other skips its turn", async () => {
    const other = await createTestApp({ database: t.database, mail: t.mail });
    try {
      const [first, second] = await Promise.all([
        t.app.dataLifecycle.sweep(),
        other.app.dataLifecycle.sweep(),
      ]);
      expect([first, second].filter((report) => report === null)).toHaveLength(1);
      // Once it is over, the next pass may run on either.
      expect(await other.app.dataLifecycle.sweep()).not.toBeNull();
    } finally {
      await other.close();
    }
  });

  // On PostgreSQL the holder is a session of its own; on PGlite, the process's guard of its one.
  it("skips a pass while another holds the lock", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding = () => {};
    const taken = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const holder = t.database.tryLock(727_002, 5_000, async () => {
      holding();
      await held;
    });
    await taken;
    try {
      expect(await t.app.dataLifecycle.sweep()).toBeNull();
    } finally {
      release();
      await holder;
    }
    expect(await t.app.dataLifecycle.sweep()).not.toBeNull();
  });

  it.skipIf(pgliteLacks("a second connection writing clicks while the partition is detached"))(
    "drops an old partition while clicks are written, without an error or a lost click",
    async () => {
      const buddies = await createBuddies(t, ["busyorg", "busypartner"]);
      const partition = await partitionAt(t.database.db, "click_events", daysAgo(470));
      await storeClicks(t.database.db, clicksAt(buddies, daysAgo(470), ["counted", "counted"]));
      let writing = true;
      const answered: string[] = [];
      const writer = (async () => {
        for (let n = 0; writing || n < 20; n++) {
          answered.push(await clickThrough(t, buddies.trackedUrl, `203.0.113.${(n % 250) + 1}`));
        }
      })();
      const report = await t.app.dataLifecycle.sweep();
      writing = false;
      await writer;
      expect(report?.dropped).toContain(partition);
      expect(answered.every((id) => id.length > 0)).toBe(true);
      // A click is answered once it is committed.
      const stored = await t.database.db
        .select({ id: clickEvents.id })
        .from(clickEvents)
        .where(inArray(clickEvents.id, answered));
      expect(stored).toHaveLength(answered.length);
    },
  );
});
