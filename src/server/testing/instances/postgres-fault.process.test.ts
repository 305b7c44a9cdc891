import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuddyProcess, startBuddy } from "../buddy-process";
import { type LocalPostgres, startLocalPostgres } from "../local-servers";
import { type MailReceiver, startMailReceiver } from "../mail-receiver";
import { countByStatus, missingClickIds, startClickLoad } from "./click-load";
import { type Partners, setUpPartners } from "./partners";
import { printOutputOnFailure, report } from "./process-suite";
import { pollReadiness } from "./readiness-poll";

/**
 * An answer that left the server just after PostgreSQL stopped may carry a row committed just
 * before: answers this soon after the stop are not judged.
 */
const GRACE_MS = 250;
/**
 * /readyz may answer from a probe it runs in the background rather than query on every call (a
 * balancer asks several times a second): it is judged from this long after the stop.
 */
const READINESS_GRACE_MS = 1500;
const OUTAGE_MS = 4000;

/**
 * The database the instances share goes away and comes back (issue 16 §5). A click is answered
 * 302 only once its row is committed, so while PostgreSQL is gone the short link answers 503,
 * never a 302 it could not store, and /readyz answers 503 so a balancer stops sending traffic.
 * Once PostgreSQL is back on the same port, the pool reconnects by itself: no restart.
 */
describe("PostgreSQL stopped and started again under a click load", () => {
  let postgres: LocalPostgres;
  let mail: MailReceiver;
  let buddy: BuddyProcess | undefined;
  let partners: Partners;
  // Named, not made: the server makes it; nothing is left behind by merely listing the tests.
  const dataDir = path.join(tmpdir(), `buddy-pg-fault-${crypto.randomUUID()}`);
  beforeAll(async () => {
    [postgres, mail] = await Promise.all([startLocalPostgres(), startMailReceiver()]);
    buddy = await startBuddy({
      databaseUrl: postgres.url,
      appSecret: crypto.randomUUID() + crypto.randomUUID(),
      dataDir,
      mail,
      stdio: "capture",
    });
    partners = await setUpPartners(buddy.origin, mail);
  }, 120_000);
  afterAll(async () => {
    await buddy?.kill();
    await postgres?.destroy();
    await mail?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  printOutputOnFailure(() => buddy?.output().split("\n").slice(-60).join("\n"));

  it("answers 503 and never an unstored 302 while it is gone, and recovers without a restart", async () => {
    const origin = buddy?.origin ?? "";
    const load = startClickLoad(partners.shortUrl, { concurrency: 4, tag: "pg" });
    const readiness = pollReadiness(origin);
    let stoppedAt = 0;
    let startingAt = 0;
    let startedAt = 0;
    let resumedAt = 0;
    let readyAt = 0;
    try {
      await load.waitForAnswer("a first click", (answer) => answer.status === 302);
      await sleep(1000);
      await postgres.stop({ mode: "immediate" });
      stoppedAt = Date.now();
      await sleep(OUTAGE_MS);
      startingAt = Date.now();
      await postgres.start();
      startedAt = Date.now();
      resumedAt = (
        await load.waitForAnswer(
          "a 302 once PostgreSQL is back",
          (a) => a.at > startedAt && a.status === 302,
          20_000,
        )
      ).at;
      const deadline = Date.now() + 20_000;
      while (!readiness.seen.some((r) => r.at > startedAt && r.status === 200) && Date.now() < deadline)
        await sleep(50);
      readyAt = readiness.seen.find((r) => r.at > startedAt && r.status === 200)?.at ?? 0;
      await sleep(1000);
    } finally {
      await load.stop();
      await readiness.stop();
    }

    const answers = load.answers;
    const outage = answers.filter((answer) => answer.at > stoppedAt + GRACE_MS && answer.at < startingAt);
    const outageReadiness = readiness.seen.filter(
      (r) => r.at > stoppedAt + READINESS_GRACE_MS && r.at < startingAt,
    );
    const ids = load.redirectedIds();
    const missing = await missingClickIds(postgres.url, ids);
    report("PostgreSQL fault", {
      answered302: ids.length,
      missing: missing.length,
      byStatus: countByStatus(answers),
      duringOutage: countByStatus(outage),
      readyzDuringOutage: countByStatus(outageReadiness as never),
      clicksResumedAfterMs: resumedAt - startedAt,
      readyAfterMs: readyAt ? readyAt - startedAt : null,
      postgresRestartMs: startedAt - startingAt,
    });

    expect(outage.length).toBeGreaterThan(0);
    expect(countByStatus(outage)).toEqual({ 503: outage.length });
    expect(JSON.parse(outage[0]?.message ?? "{}")).toEqual({ message: expect.any(String) });
    expect(outageReadiness.length).toBeGreaterThan(0);
    expect(outageReadiness.every((r) => r.status === 503)).toBe(true);
    expect(readyAt, "/readyz answers 200 again").toBeGreaterThan(0);
    // Never a lost click: every 302, before, during or after the outage, has its row.
    expect(missing.length, `answered but not stored, e.g. ${missing.slice(0, 3).join(", ")}`).toBe(0);
    expect(
      answers.filter((answer) => answer.status === 0 || (answer.status >= 500 && answer.status !== 503)),
    ).toEqual([]);
  }, 90_000);
});
