import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuddyProcess, startBuddy } from "../buddy-process";
import { type LocalPostgres, query, startLocalPostgres } from "../local-servers";
import { type MailReceiver, startMailReceiver } from "../mail-receiver";
import { createTcpForwarder, postgresTarget, type TcpForwarder } from "../tcp-forwarder";
import { countByStatus, missingClickIds, startClickLoad } from "./click-load";
import { type Partners, setUpPartners } from "./partners";
import { printOutputOnFailure, report } from "./process-suite";
import { pollReadiness } from "./readiness-poll";

const STALL_MS = 8000;
/** What any request may take, through the stall too. */
const ANSWER_BOUND_MS = 5000;
/** From the thaw to the first 302. */
const RECOVERY_BOUND_MS = 10_000;
/** An answer this soon after the freeze may carry a commit made just before it: not judged. */
const GRACE_MS = 250;
/** /readyz gives its database check 2 s: judged from a little after that. */
const READINESS_GRACE_MS = 2500;

const clickRows = async (url: string) =>
  Number((await query<{ n: number }>(url, "select count(*)::int as n from click_events"))[0]?.n ?? 0);

/**
 * PostgreSQL stops answering without closing anything (issue 26): a relay between the instance and
 * its database stops carrying bytes for 8 s, as a lock wait, a half-open socket after a failover or
 * a partition would. Every wait on the request path has a bound: the group commit's deadline
 * answers clicks 503 within about 2 s, never a 302 it could not store, and once the relay carries
 * bytes again the next clicks are stored and answered 302 with no restart.
 */
describe("PostgreSQL stalled under a click load", () => {
  let postgres: LocalPostgres;
  let mail: MailReceiver;
  let relay: TcpForwarder;
  let buddy: BuddyProcess | undefined;
  let partners: Partners;
  // Named, not made: the server makes it; nothing is left behind by merely listing the tests.
  const dataDir = path.join(tmpdir(), `buddy-pg-stall-${crypto.randomUUID()}`);
  beforeAll(async () => {
    [postgres, mail] = await Promise.all([startLocalPostgres(), startMailReceiver()]);
    const target = postgresTarget(postgres.url);
    relay = await createTcpForwarder(target);
    await relay.relay();
    buddy = await startBuddy({
      databaseUrl: target.through(relay.port),
      appSecret: crypto.randomUUID() + crypto.randomUUID(),
      dataDir,
      mail,
      stdio: "capture",
    });
    partners = await setUpPartners(buddy.origin, mail);
  }, 120_000);
  afterAll(async () => {
    relay?.thaw();
    await buddy?.kill();
    await relay?.close();
    await postgres?.destroy();
    await mail?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  printOutputOnFailure(() => buddy?.output().split("\n").slice(-60).join("\n"));

  it("answers 503 within the bound while it stalls, never a 302, and serves again after", async () => {
    const origin = buddy?.origin ?? "";
    const rowsBefore = await clickRows(postgres.url);
    const load = startClickLoad(partners.shortUrl, { concurrency: 4, tag: "stall" });
    const readiness = pollReadiness(origin, { timeoutMs: 10_000 });
    let frozenAt = 0;
    let thawedAt = 0;
    let resumedAt = 0;
    let readyAt = 0;
    try {
      await load.waitForAnswer("a first click", (answer) => answer.status === 302);
      await sleep(1000);
      relay.freeze();
      frozenAt = Date.now();
      await sleep(STALL_MS);
      relay.thaw();
      thawedAt = Date.now();
      resumedAt = (
        await load.waitForAnswer(
          "a 302 once PostgreSQL answers again",
          (a) => a.at > thawedAt && a.status === 302,
          RECOVERY_BOUND_MS,
        )
      ).at;
      const deadline = Date.now() + RECOVERY_BOUND_MS;
      while (!readiness.seen.some((r) => r.at > thawedAt && r.status === 200) && Date.now() < deadline)
        await sleep(50);
      readyAt = readiness.seen.find((r) => r.at > thawedAt && r.status === 200)?.at ?? 0;
      await sleep(1000);
    } finally {
      await load.stop();
      await readiness.stop();
    }
    // A statement given up during the stall may still commit now that bytes flow again.
    await sleep(2000);

    const answers = load.answers;
    const stalled = answers.filter((a) => a.at > frozenAt + GRACE_MS && a.at <= thawedAt);
    const stalledReadiness = readiness.seen.filter(
      (r) => r.at > frozenAt + READINESS_GRACE_MS && r.at <= thawedAt,
    );
    const ids = load.redirectedIds();
    const missing = await missingClickIds(postgres.url, ids);
    const stored = (await clickRows(postgres.url)) - rowsBefore;
    const slowest = (list: { ms: number }[]) => Math.max(0, ...list.map((a) => a.ms));
    report("PostgreSQL stall", {
      stallMs: STALL_MS,
      answered302: ids.length,
      storedRows: stored,
      storedAfter503: stored - ids.length,
      missing: missing.length,
      byStatus: countByStatus(answers),
      duringStall: countByStatus(stalled),
      slowestAnswerMs: slowest(answers),
      slowestDuringStallMs: slowest(stalled),
      readyzDuringStall: countByStatus(stalledReadiness as never),
      slowestReadyzMs: slowest(readiness.seen),
      clicksResumedAfterMs: resumedAt - thawedAt,
      readyAfterMs: readyAt ? readyAt - thawedAt : null,
    });

    expect(answers.filter((a) => a.status === 0 || a.ms > ANSWER_BOUND_MS)).toEqual([]);
    expect(stalled.length).toBeGreaterThan(0);
    expect(countByStatus(stalled)).toEqual({ 503: stalled.length });
    for (const answer of stalled) {
      expect(JSON.parse(answer.message ?? "{}")).toEqual({ message: expect.any(String) });
      expect(answer.retryAfter).toMatch(/^\d+$/);
    }
    expect(stalledReadiness.length).toBeGreaterThan(0);
    expect(countByStatus(stalledReadiness as never)).toEqual({ 503: stalledReadiness.length });
    expect(readiness.seen.filter((r) => r.status === 0 || r.ms > ANSWER_BOUND_MS)).toEqual([]);
    expect(resumedAt - thawedAt).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
    expect(readyAt, "/readyz answers 200 again").toBeGreaterThan(0);
    // Every 302 has its row. Rows beyond them are clicks of a statement given up at its deadline
    // that committed after all: answered 503, stored, and counted (tracking/README.md).
    expect(missing.length, `answered but not stored, e.g. ${missing.slice(0, 3).join(", ")}`).toBe(0);
    expect(stored).toBeGreaterThanOrEqual(ids.length);
    expect(stored - ids.length).toBeLessThanOrEqual(countByStatus(answers)[503] ?? 0);
  }, 90_000);
});
