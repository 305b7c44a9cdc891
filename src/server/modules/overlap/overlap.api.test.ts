import type { OverlapPartner, OverlapRun, OverlapRunWork } from "@shared/overlap";
import { answerRun, startRun } from "@shared/overlap-protocol";
import { eq, sql } from "drizzle-orm";
import sodium from "libsodium-wrappers-sumo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client";
import { organizations, overlapRuns } from "../../db/schema";
import type { MailPayload } from "../../mail/mail-jobs";
import {
  addMember,
  createApiKey,
  createOrganization,
  createTestApp,
  relate,
  type TestApp,
} from "../../testing/app";
import { declarePopulation, type OverlapSide, overlapCall, runOverlap } from "../../testing/overlap-client";
import { noticeComposer } from "../notifications/notice-composer";
import { expireOverlapRuns } from "./overlap-runs.service";

let t: TestApp;
type Org = Awaited<ReturnType<typeof createOrganization>>;

const domains = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${i}.com`);
/** A holds 300 domains, B 250, and 77 are in both. */
const common = domains("shared-", 77);
const aDomains = [...domains("a-only-", 223), ...common];
const bDomains = [...common, ...domains("b-only-", 173)];

beforeAll(async () => {
  await sodium.ready;
  t = await createTestApp(process.env.DEBUG_LOG ? { logger: { level: "error" } } : {});
});
afterAll(async () => {
  await t?.close();
});

let pairs = 0;
/** Two organizations, B a Buddy of A, each holding its customers list. */
async function buddies(): Promise<[Org, Org]> {
  pairs++;
  const a = await createOrganization(t, `ovl-a${pairs}`);
  const b = await createOrganization(t, `ovl-b${pairs}`);
  await relate(t, a, b.organizationId, "complement");
  await declarePopulation(t, a, "customers", aDomains);
  await declarePopulation(t, b, "customers", bDomains);
  return [a, b];
}

const side = (org: Org, list: string[], population?: "customers" | "prospects") => ({
  organizationId: org.organizationId,
  headers: org.headers,
  domains: list,
  population,
});

async function setLevel(org: OverlapSide, partnerId: string, level: string) {
  return overlapCall<OverlapPartner>(t, org, "PUT", `/api/overlap/partners/${partnerId}`, { level });
}

/** A start the test expects refused: its answer, whatever the status. */
function attemptStart(org: OverlapSide, payload: unknown) {
  return t.app.inject({
    method: "POST",
    url: "/api/overlap/runs",
    headers: org.headers,
    payload: payload as object,
  });
}

async function securityLog(org: Org) {
  return (
    await overlapCall<{ entries: { action: string; target: string | null }[] }>(
      t,
      org,
      "GET",
      "/api/security-log",
    )
  ).entries.filter((entry) => entry.action.startsWith("overlap_run"));
}
const logOf = async (org: Org) => (await securityLog(org)).map((entry) => entry.action);

async function runRow(id: string) {
  const [row] = await t.database.db.select().from(overlapRuns).where(eq(overlapRuns.id, id));
  return row;
}

/** A starts a run of its customers against B's, as expected to succeed. */
const start = (a: Org, b: Org) =>
  overlapCall<OverlapRun>(t, a, "POST", "/api/overlap/runs", startBody(b.organizationId), 201);

function startBody(partnerId: string, points = startRun(sodium, aDomains).points) {
  return { partnerId, population: "customers", partnerPopulation: "customers", points };
}

describe("an overlap run between Buddies (CONTRACT §11)", () => {
  it("in Counts mode, the default, both sides get the exact count and nothing else", async () => {
    const [a, b] = await buddies();
    const result = await runOverlap(t, sodium, side(a, aDomains), side(b, bDomains));
    expect(result.localCount).toBe(77);
    expect(result.forA).toMatchObject({
      status: "completed",
      level: "counts",
      count: 77,
      matches: null,
      started: true,
    });
    expect(result.forB).toMatchObject({
      status: "completed",
      level: "counts",
      count: 77,
      matches: null,
      started: false,
    });
    expect(result.forB.partner.id).toBe(a.organizationId);

    // A finished run keeps only its result.
    const [row] = await t.database.db.select().from(overlapRuns).where(eq(overlapRuns.id, result.forA.id));
    expect(row).toMatchObject({
      starterPoints: null,
      responderDoubled: null,
      responderPoints: null,
      overlapCount: 77,
    });
    expect(row?.starterMatches).toBeNull();

    // Each side's page shows it, and the Buddies list's column too.
    const page = await overlapCall<OverlapPartner>(t, b, "GET", `/api/overlap/partners/${a.organizationId}`);
    expect(page.results).toHaveLength(1);
    expect(page.results[0]?.count).toBe(77);
    expect(page.pending).toEqual([]);
    const summary = await overlapCall<{ partners: { partnerId: string; customers: number | null }[] }>(
      t,
      a,
      "GET",
      "/api/overlap/partners",
    );
    expect(summary.partners).toContainEqual(
      expect.objectContaining({ partnerId: b.organizationId, customers: 77 }),
    );

    // Every run is in both sides' security logs: started, answered on B's side, completed; no count.
    expect(await logOf(a)).toEqual(["overlap_run_completed", "overlap_run_started"]);
    expect(await logOf(b)).toEqual(["overlap_run_completed", "overlap_run_answered", "overlap_run_started"]);
    const targets = (await securityLog(b)).map((entry) => entry.target ?? "");
    expect(targets).toContain(`ovl-a${pairs} started: your customers × their customers`);
    expect(targets.filter((target) => target.includes("77"))).toEqual([]);
  });

  it("in Overlaps mode (both sides chose it), each side learns exactly its own shared accounts", async () => {
    const [a, b] = await buddies();
    await setLevel(a, b.organizationId, "overlaps");
    await setLevel(b, a.organizationId, "overlaps");
    const result = await runOverlap(t, sodium, side(a, aDomains), side(b, bDomains));
    expect(result.forA).toMatchObject({ level: "overlaps", count: 77 });
    expect(result.aShared?.sort()).toEqual([...common].sort());
    expect(result.bShared?.sort()).toEqual([...common].sort());
  });

  it("uses the lower of the two levels: Overlaps on one side and Counts on the other is Counts", async () => {
    const [a, b] = await buddies();
    const page = await setLevel(a, b.organizationId, "overlaps");
    expect(page).toMatchObject({ level: "overlaps", effectiveLevel: "counts" });
    const result = await runOverlap(t, sodium, side(a, aDomains), side(b, bDomains));
    expect(result.forA).toMatchObject({ level: "counts", count: 77, matches: null });
    expect(result.forB.matches).toBeNull();
  });

  it("runs nothing while either side is Hidden, and a side going Hidden mid-run cancels it", async () => {
    const [a, b] = await buddies();
    await setLevel(b, a.organizationId, "hidden");
    const refused = await attemptStart(a, startBody(b.organizationId));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: "Overlap runs are off between your organizations" });

    await setLevel(b, a.organizationId, "counts");
    const run = await start(a, b);
    await setLevel(a, b.organizationId, "hidden");
    const answered = await t.app.inject({
      method: "POST",
      url: `/api/overlap/runs/${run.id}/answer`,
      headers: b.headers,
      payload: {
        doubled: startRun(sodium, aDomains).points,
        points: startRun(sodium, bDomains).points,
        level: "counts",
      },
    });
    expect(answered.statusCode, answered.body).toBe(409);
    const [row] = await t.database.db.select().from(overlapRuns).where(eq(overlapRuns.id, run.id));
    expect(row).toMatchObject({ status: "cancelled", starterPoints: null });
  });

  it("refuses an answer kept in order for Overlaps once the level went down to Counts meanwhile", async () => {
    const [a, b] = await buddies();
    await setLevel(a, b.organizationId, "overlaps");
    await setLevel(b, a.organizationId, "overlaps");
    const run = await start(a, b);
    const work = await overlapCall<{ stepLevel: string }>(t, b, "GET", `/api/overlap/runs/${run.id}`);
    expect(work.stepLevel).toBe("overlaps");
    await setLevel(a, b.organizationId, "counts");
    const stale = await t.app.inject({
      method: "POST",
      url: `/api/overlap/runs/${run.id}/answer`,
      headers: b.headers,
      payload: {
        doubled: startRun(sodium, aDomains).points,
        points: startRun(sodium, bDomains).points,
        level: "overlaps",
      },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ message: "Sharing changed while this step was taken: take it again" });
    const [row] = await t.database.db.select().from(overlapRuns).where(eq(overlapRuns.id, run.id));
    expect(row).toMatchObject({ status: "waiting", responderDoubled: null });
    // Taken again at the level now in force, it counts only.
    const again = await overlapCall<OverlapRunWork>(t, b, "GET", `/api/overlap/runs/${run.id}`);
    expect(again.stepLevel).toBe("counts");
    const answered = answerRun(sodium, bDomains, again.points ?? [], again.stepLevel);
    const done = await overlapCall<OverlapRun>(t, b, "POST", `/api/overlap/runs/${run.id}/answer`, {
      doubled: answered.doubled,
      points: answered.points,
      level: again.stepLevel,
    });
    expect(done).toMatchObject({ status: "answered", level: "counts" });
  });

  it("says fewer than 5 (count null, no matches) for a tiny overlap, even in Overlaps mode", async () => {
    const [a, b] = await buddies();
    await setLevel(a, b.organizationId, "overlaps");
    await setLevel(b, a.organizationId, "overlaps");
    const few = [...domains("few-a-", 96), ...common.slice(0, 4)];
    const result = await runOverlap(t, sodium, side(a, few), side(b, bDomains));
    expect(result.localCount).toBe(4);
    expect(result.forA).toMatchObject({ count: null, matches: null, status: "completed" });
    expect(result.forB).toMatchObject({ count: null, matches: null });
    const [row] = await t.database.db.select().from(overlapRuns).where(eq(overlapRuns.id, result.forA.id));
    expect(row?.overlapCount).toBe(4);
  });

  it("compares a pair of lists once per 24 hours, whoever starts, while other pairs may run", async () => {
    const [a, b] = await buddies();
    await declarePopulation(t, b, "prospects", bDomains);
    await overlapCall(t, a, "POST", "/api/overlap/runs", startBody(b.organizationId), 201);
    const again = await attemptStart(a, startBody(b.organizationId));
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toMatch(/^These two lists were compared less than 24 hours ago/);
    // The same two lists started from the other side.
    const reverse = await attemptStart(b, {
      ...startBody(a.organizationId, startRun(sodium, bDomains).points),
    });
    expect(reverse.statusCode).toBe(429);
    // A's customers against B's prospects is another pair.
    await overlapCall(
      t,
      a,
      "POST",
      "/api/overlap/runs",
      { ...startBody(b.organizationId), partnerPopulation: "prospects" },
      201,
    );
    const page = await overlapCall<OverlapPartner>(t, a, "GET", `/api/overlap/partners/${b.organizationId}`);
    expect(Object.keys(page.nextRunAt).sort()).toEqual(["customers:customers", "customers:prospects"]);
    expect(page.pending).toHaveLength(2);
  });

  it("refuses a step taken for another level than the one now in force, raised or lowered", async () => {
    const [a, b] = await buddies();
    const run = await start(a, b);
    const work = await overlapCall<OverlapRunWork>(t, b, "GET", `/api/overlap/runs/${run.id}`);
    expect(work.stepLevel).toBe("counts");
    // Raised to Overlaps meanwhile: a shuffled answer could not be read back as positions.
    await setLevel(a, b.organizationId, "overlaps");
    await setLevel(b, a.organizationId, "overlaps");
    const answered = answerRun(sodium, bDomains, work.points ?? [], "counts");
    const stale = await t.app.inject({
      method: "POST",
      url: `/api/overlap/runs/${run.id}/answer`,
      headers: b.headers,
      payload: { doubled: answered.doubled, points: answered.points, level: "counts" },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ message: "Sharing changed while this step was taken: take it again" });
    expect(await runRow(run.id)).toMatchObject({ status: "waiting", responderDoubled: null });
    // A step that names no level is refused before anything is read.
    const unnamed = await t.app.inject({
      method: "POST",
      url: `/api/overlap/runs/${run.id}/answer`,
      headers: b.headers,
      payload: { doubled: answered.doubled, points: answered.points },
    });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().message).toMatch(/level/);
  });

  it("ends a run at once when a side goes Hidden, or below an answer kept for Overlaps: its points go", async () => {
    const [a, b] = await buddies();
    await setLevel(a, b.organizationId, "overlaps");
    await setLevel(b, a.organizationId, "overlaps");
    const run = await start(a, b);
    const work = await overlapCall<OverlapRunWork>(t, b, "GET", `/api/overlap/runs/${run.id}`);
    const answered = answerRun(sodium, bDomains, work.points ?? [], "overlaps");
    await overlapCall(t, b, "POST", `/api/overlap/runs/${run.id}/answer`, {
      doubled: answered.doubled,
      points: answered.points,
      level: "overlaps",
    });
    // B's answer is in A's order: at Counts, A may no longer read it.
    await setLevel(b, a.organizationId, "counts");
    expect(await runRow(run.id)).toMatchObject({
      status: "cancelled",
      responderDoubled: null,
      responderPoints: null,
      starterPoints: null,
    });
    const read = await t.app.inject({ url: `/api/overlap/runs/${run.id}`, headers: a.headers });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ status: "cancelled", doubled: null, partnerPoints: null });
    expect(await logOf(a)).toContain("overlap_run_cancelled");
    expect(await logOf(b)).toContain("overlap_run_cancelled");

    // A run waiting for its answer ends when the side asked turns Hidden ("Never with …").
    await t.database.db
      .update(overlapRuns)
      .set({ createdAt: sql`now() - interval '2 days'` })
      .where(eq(overlapRuns.id, run.id));
    const next = await start(a, b);
    await setLevel(b, a.organizationId, "hidden");
    expect(await runRow(next.id)).toMatchObject({ status: "cancelled", starterPoints: null });
    const awaiting = await overlapCall<{ runs: OverlapRun[] }>(
      t,
      b,
      "GET",
      "/api/overlap/runs?awaiting=true",
    );
    expect(awaiting.runs).toEqual([]);
  });

  it("ends the runs of a list when it is removed, and starts none from a list not declared", async () => {
    const [a, b] = await buddies();
    const run = await start(a, b);
    await overlapCall(t, b, "DELETE", "/api/overlap/populations/customers");
    expect(await runRow(run.id)).toMatchObject({ status: "cancelled", starterPoints: null });

    const noList = await attemptStart(b, { ...startBody(a.organizationId), population: "prospects" });
    expect(noList.statusCode).toBe(409);
    expect(noList.json()).toEqual({ message: "Declare your prospects list before comparing it" });
  });

  it("refuses an answer or a completion repeating a point: it could only inflate the count", async () => {
    const [a, b] = await buddies();
    const run = await start(a, b);
    const work = await overlapCall<OverlapRunWork>(t, b, "GET", `/api/overlap/runs/${run.id}`);
    const answered = answerRun(sodium, bDomains, work.points ?? [], "counts");
    const doubled = [...answered.doubled];
    doubled[1] = doubled[0] as string;
    const repeated = await t.app.inject({
      method: "POST",
      url: `/api/overlap/runs/${run.id}/answer`,
      headers: b.headers,
      payload: { doubled, points: answered.points, level: "counts" },
    });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json()).toEqual({ message: "Each domain may be sent once" });
    expect(await runRow(run.id)).toMatchObject({ status: "waiting" });
  });

  it("expires a run after 7 days: its points go, and no step may follow", async () => {
    const [a, b] = await buddies();
    const run = await start(a, b);
    await t.database.db
      .update(overlapRuns)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(overlapRuns.id, run.id));
    const awaiting = await overlapCall<{ runs: OverlapRun[] }>(
      t,
      b,
      "GET",
      "/api/overlap/runs?awaiting=true",
    );
    expect(awaiting.runs.map((entry) => entry.id)).not.toContain(run.id);
    const late = await t.app.inject({ url: `/api/overlap/runs/${run.id}`, headers: b.headers });
    expect(late.statusCode).toBe(409);
    expect(await expireOverlapRuns(t.database.db)).toBeGreaterThanOrEqual(1);
    const [row] = await t.database.db.select().from(overlapRuns).where(eq(overlapRuns.id, run.id));
    expect(row).toMatchObject({ status: "expired", starterPoints: null });
  });

  it("asks the partner's admins by mail, with its one-click unsubscribe, and not its members", async () => {
    const [a, b] = await buddies();
    const member = await addMember(t, b.organizationId, "member");
    await overlapCall(t, a, "POST", "/api/overlap/runs", startBody(b.organizationId), 201);
    await t.app.outbox.drain();
    const subject = `ovl-a${pairs} asks to compare account lists with ovl-b${pairs}`;
    const mails = t.mail.messages.filter((mail) => mail.subject === subject);
    expect(mails.map((mail) => mail.to)).toEqual([b.email.toLowerCase()]);
    expect(mails[0]?.text).toContain("how many of its customers are among your customers");
    expect(mails[0]?.headers["list-unsubscribe"]).toMatch(/\/api\/notifications\/unsubscribe\?token=/);
    expect(
      t.mail.messages.filter((mail) => mail.to === member.email.toLowerCase() && mail.subject === subject),
    ).toEqual([]);
  });

  it("composes no request mail once the pair is blocked: the mail names the starter", async () => {
    const [a, b] = await buddies();
    const run = await start(a, b);
    const [job] = rowsOf<{ payload: MailPayload }>(
      await t.database.db.execute(
        sql`select payload from jobs where kind = 'mail' and payload->'notice'->>'runId' = ${run.id}`,
      ),
    );
    if (!job) throw new Error("no mail was queued");
    const compose = noticeComposer({ publicUrl: "http://buddy.test", secret: "overlap-test-secret" });
    expect(await compose(t.database.db, b.email, job.payload)).not.toBeNull();
    await relate(t, b, a.organizationId, "competitor");
    expect(await compose(t.database.db, b.email, job.payload)).toBeNull();
  });

  it("works with an API key, the organization's own server taking the starting side", async () => {
    const [a, b] = await buddies();
    const { key } = await createApiKey(t, a);
    const viaKey = { organizationId: a.organizationId, headers: { "x-api-key": key } };
    const result = await runOverlap(t, sodium, { ...viaKey, domains: aDomains }, side(b, bDomains));
    expect(result.forA.count).toBe(77);
    const log = await t.database.db.execute(
      sql`select actor_user_id from security_log where organization_id = ${a.organizationId} and action = 'overlap_run_started'`,
    );
    expect(rowsOf<{ actor_user_id: string | null }>(log)).toEqual([{ actor_user_id: null }]);
  });
});

describe("against probing and misuse", () => {
  it("refuses fewer than 50 distinct domains, repeats, and values that are not points", async () => {
    const [a, b] = await buddies();
    const points = startRun(sodium, aDomains).points;
    const cases: [unknown, string][] = [
      [points.slice(0, 49), "A list needs at least 50 distinct domains"],
      [[...points.slice(0, 60), points[0]], "Each domain may be sent once"],
      [[...points.slice(0, 59), "not a point"], "Each point is 32 bytes in unpadded base64url"],
      [[...points.slice(0, 59), 42], "Each point is 32 bytes in unpadded base64url"],
    ];
    for (const [list, message] of cases) {
      const response = await attemptStart(a, { ...startBody(b.organizationId), points: list });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toContain(message);
    }
    expect(
      await t.database.db.select().from(overlapRuns).where(eq(overlapRuns.starterId, a.organizationId)),
    ).toEqual([]);
  });

  it("answers a blocked pair exactly as an unknown organization: 404", async () => {
    const [a, b] = await buddies();
    const before = await start(a, b);
    await relate(t, b, a.organizationId, "competitor");
    // Its runs go out of sight on both sides, as the partner does.
    const runsOf = async (org: Org, query = "") =>
      (await overlapCall<{ runs: OverlapRun[] }>(t, org, "GET", `/api/overlap/runs${query}`)).runs.map(
        (r) => r.id,
      );
    expect(await runsOf(a)).not.toContain(before.id);
    expect(await runsOf(b, "?awaiting=true")).not.toContain(before.id);
    const unknown = await attemptStart(a, startBody(crypto.randomUUID()));
    for (const [method, url, payload] of [
      ["POST", "/api/overlap/runs", startBody(b.organizationId)],
      ["GET", `/api/overlap/partners/${b.organizationId}`, undefined],
      ["PUT", `/api/overlap/partners/${b.organizationId}`, { level: "overlaps" }],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: a.headers, payload });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual(unknown.json());
    }
    // Nor from the blocked side.
    const other = await t.app.inject({
      url: `/api/overlap/partners/${a.organizationId}`,
      headers: b.headers,
    });
    expect(other.statusCode).toBe(404);
    // Its run is not found either, even once expired; the hourly pass ends it without a word to
    // either side's log (a block is not told to the side blocked).
    await t.database.db
      .update(overlapRuns)
      .set({ expiresAt: sql`now() + interval '1 hour'` })
      .where(eq(overlapRuns.id, before.id));
    await expireOverlapRuns(t.database.db);
    expect(await runRow(before.id)).toMatchObject({ status: "cancelled", starterPoints: null });
    await t.database.db
      .update(overlapRuns)
      .set({ status: "waiting", expiresAt: sql`now() - interval '1 second'` })
      .where(eq(overlapRuns.id, before.id));
    const expired = await t.app.inject({ url: `/api/overlap/runs/${before.id}`, headers: b.headers });
    expect(expired.statusCode).toBe(404);
    expect(await logOf(a)).not.toContain("overlap_run_cancelled");
    expect(await logOf(b)).not.toContain("overlap_run_cancelled");
  });

  it("allows organizations that are not Buddies only when both are proven and opted into discovery", async () => {
    const a = await createOrganization(t, "ovl-disc-a");
    const b = await createOrganization(t, "ovl-disc-b");
    await declarePopulation(t, a, "customers", aDomains);
    await declarePopulation(t, b, "customers", bDomains);
    const notYet = await attemptStart(a, startBody(b.organizationId));
    expect(notYet.statusCode).toBe(409);
    await overlapCall(t, a, "PUT", "/api/overlap/discovery", { enabled: true });
    const listed = await overlapCall<{ organizations: { id: string }[] }>(
      t,
      a,
      "GET",
      "/api/overlap/discoverable",
    );
    expect(listed.organizations.map((o) => o.id)).not.toContain(b.organizationId);
    await overlapCall(t, b, "PUT", "/api/overlap/discovery", { enabled: true });
    const now = await overlapCall<{ organizations: { id: string }[] }>(
      t,
      a,
      "GET",
      "/api/overlap/discoverable",
    );
    expect(now.organizations.map((o) => o.id)).toContain(b.organizationId);
    // Unproven, it drops out.
    await t.database.db
      .update(organizations)
      .set({ domainVerifiedAt: null })
      .where(eq(organizations.id, b.organizationId));
    const unproven = await attemptStart(a, startBody(b.organizationId));
    expect(unproven.statusCode).toBe(409);
    await t.database.db
      .update(organizations)
      .set({ domainVerifiedAt: new Date() })
      .where(eq(organizations.id, b.organizationId));
    await overlapCall(t, a, "POST", "/api/overlap/runs", startBody(b.organizationId), 201);
  });

  it("is for admins only: a member gets 403 on every overlap route", async () => {
    const [a, b] = await buddies();
    const member = await addMember(t, a.organizationId, "member");
    const run = await start(a, b);
    const routes = t.app.routeAccess.filter(
      (route) => route.url.startsWith("/api/overlap") && route.method !== "HEAD",
    );
    expect(routes.length).toBeGreaterThanOrEqual(13);
    for (const route of routes) {
      const url = route.url
        .replace(":population", "customers")
        .replace(":partnerId", b.organizationId)
        .replace(":id", run.id);
      const response = await t.app.inject({
        method: route.method as "GET",
        url,
        headers: member.headers,
        payload: route.method === "POST" || route.method === "PUT" ? {} : undefined,
      });
      expect(response.statusCode, `${route.method} ${url} ${response.body}`).toBe(403);
      expect(response.json()).toEqual({ message: "Only admins can do this" });
    }
  });

  it("keeps a run to its two organizations: a third gets 404 for it, and steps out of turn are refused", async () => {
    const [a, b] = await buddies();
    const stranger = await createOrganization(t, "ovl-stranger");
    const run = await start(a, b);
    for (const [method, url] of [
      ["GET", `/api/overlap/runs/${run.id}`],
      ["POST", `/api/overlap/runs/${run.id}/answer`],
      ["POST", `/api/overlap/runs/${run.id}/complete`],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        headers: stranger.headers,
        payload:
          method === "POST"
            ? {
                doubled: startRun(sodium, aDomains).points,
                points: startRun(sodium, bDomains).points,
                level: "counts",
              }
            : undefined,
      });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ message: "Overlap run not found" });
    }
    // The starter may not answer its own run, nor complete it before the answer.
    for (const step of ["answer", "complete"]) {
      const response = await t.app.inject({
        method: "POST",
        url: `/api/overlap/runs/${run.id}/${step}`,
        headers: a.headers,
        payload: {
          doubled: startRun(sodium, aDomains).points,
          points: startRun(sodium, bDomains).points,
          level: "counts",
        },
      });
      expect(response.statusCode).toBe(409);
    }
    // An answer must re-blind every point it received, no more and no fewer.
    const short = await t.app.inject({
      method: "POST",
      url: `/api/overlap/runs/${run.id}/answer`,
      headers: b.headers,
      payload: {
        doubled: startRun(sodium, aDomains).points.slice(1),
        points: startRun(sodium, bDomains).points,
        level: "counts",
      },
    });
    expect(short.statusCode).toBe(409);
    expect(short.json()).toEqual({ message: "Send one point for each point you received" });
  });

  it("needs the partner's list to exist before a run starts", async () => {
    const [a, b] = await buddies();
    const response = await attemptStart(a, {
      ...startBody(b.organizationId),
      partnerPopulation: "prospects",
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/has no prospects list on Buddy yet$/);
  });
});

describe("suggestions among organizations open to discovery (CONTRACT §11)", () => {
  it("puts the largest customer overlap first, with the count as the reason, and drops it on opting out", async () => {
    const me = await createOrganization(t, "ovl-sugg-me");
    const big = await createOrganization(t, "ovl-sugg-big");
    const small = await createOrganization(t, "ovl-sugg-small");
    for (const org of [me, big, small])
      await overlapCall(t, org, "PUT", "/api/overlap/discovery", { enabled: true });
    await declarePopulation(t, big, "customers", bDomains);
    await declarePopulation(t, small, "customers", bDomains);
    await runOverlap(t, sodium, side(me, aDomains), side(big, bDomains));
    const fewer = [...common.slice(0, 20), ...domains("sugg-small-", 60)];
    await runOverlap(t, sodium, side(me, aDomains), side(small, fewer));

    const suggestions = async () =>
      (
        await overlapCall<{ suggestions: { targetOrg: { id: string }; reason: string | null }[] }>(
          t,
          me,
          "GET",
          `/api/ecosystem/suggestions?domain=${me.domain}`,
        )
      ).suggestions;
    const first = await suggestions();
    expect(first.slice(0, 2).map((s) => [s.targetOrg.id, s.reason])).toEqual([
      [big.organizationId, "77 of your customers are ovl-sugg-big customers"],
      [small.organizationId, "20 of your customers are ovl-sugg-small customers"],
    ]);

    await overlapCall(t, big, "PUT", "/api/overlap/discovery", { enabled: false });
    const after = await suggestions();
    expect(after.map((s) => s.targetOrg.id)).not.toContain(big.organizationId);
    expect(after[0]?.targetOrg.id).toBe(small.organizationId);
  });
});
