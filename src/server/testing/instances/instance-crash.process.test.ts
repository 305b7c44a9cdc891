import { existsSync, readdirSync, rmSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "../local-servers";
import { type Answer, countByStatus, missingClickIds, startClickLoad } from "./click-load";
import { type Cluster, startCluster } from "./cluster";
import { call, type Partners, setUpPartners } from "./partners";
import { haproxyMissing, printOutputOnFailure, report } from "./process-suite";

const failed = (answers: Answer[]) => answers.filter((answer) => answer.status === 0 || answer.status >= 500);

/**
 * Platforms replace an instance by starting a new one elsewhere: its disk goes with it (issue 16
 * §4). Kill one of two instances with SIGKILL in the middle of a click load and delete its
 * DATA_DIR: every click that got a 302 is already in the shared database, HAProxy goes on through
 * the other instance, and the instance started again on an empty DATA_DIR knows every session.
 */
describe.skipIf(haproxyMissing("an instance killed behind HAProxy"))("an instance killed under load", () => {
  let cluster: Cluster;
  let partners: Partners;
  beforeAll(async () => {
    cluster = await startCluster();
    partners = await setUpPartners(cluster.balancer.origin, cluster.mail);
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  printOutputOnFailure(() => cluster?.output());

  it("keeps every answered click, fails over without 5xx and restarts on an empty DATA_DIR", async () => {
    const { balancer, instances, postgres } = cluster;
    const load = startClickLoad(partners.shortUrl, { concurrency: 8, tag: "crash" });
    const killedDataDir = instances.a.dataDir;
    let killedAt = 0;
    let downAt = 0;
    try {
      // Both instances are answering clicks when one dies.
      await load.waitForAnswer(
        "a click answered by a",
        (answer) => answer.servedBy === "a" && answer.status === 302,
      );
      await load.waitForAnswer(
        "a click answered by b",
        (answer) => answer.servedBy === "b" && answer.status === 302,
      );
      await sleep(1000);
      killedAt = Date.now();
      await instances.a.kill();
      rmSync(killedDataDir, { recursive: true, force: true });
      downAt = await balancer.waitForStatus("a", "DOWN", 10_000);
      await sleep(2000);
    } finally {
      await load.stop();
    }

    const answers = load.answers;
    const beforeKill = answers.filter((answer) => answer.at < killedAt);
    const failover = answers.filter((answer) => answer.at >= killedAt && answer.at < downAt);
    const afterDown = answers.filter((answer) => answer.at >= downAt);
    const ids = load.redirectedIds();
    // Read before anything restarts: the answered clicks must not wait for anyone to store them.
    const missing = await missingClickIds(postgres.url, ids);
    const [stored] = await query<{ count: string }>(postgres.url, "select count(*) from click_events");
    report("SIGKILL", {
      answered302: ids.length,
      storedRows: Number(stored?.count),
      missing: missing.length,
      byStatus: countByStatus(answers),
      failedBeforeKill: failed(beforeKill).length,
      failedBeforeMarkedDown: failed(failover).length,
      failedAfterMarkedDown: failed(afterDown).length,
      markedDownAfterMs: downAt - killedAt,
      answeredAfterDown: afterDown.length,
    });
    expect(missing.length, `answered but not stored, e.g. ${missing.slice(0, 3).join(", ")}`).toBe(0);
    expect(Number(stored?.count)).toBeGreaterThanOrEqual(ids.length);
    expect(failed(beforeKill)).toEqual([]);
    expect(failed(afterDown)).toEqual([]);
    expect(afterDown.filter((answer) => answer.status === 302).length).toBeGreaterThan(20);
    expect(afterDown.every((answer) => answer.servedBy === "b")).toBe(true);

    // A new instance on the same port, with nothing in its DATA_DIR: sessions live in the database.
    const restarted = await cluster.restart("a");
    expect(existsSync(killedDataDir)).toBe(false);
    expect(restarted.dataDir).not.toBe(killedDataDir);
    const me = await call<{ user: { organizationId: string } }>(
      restarted.origin,
      "/api/me",
      partners.sharerToken,
    );
    expect(me.status).toBe(200);
    expect(me.body.user.organizationId).toBe(partners.sharerId);
    const upAt = Date.now();
    await balancer.waitForStatus("a", "UP", 10_000);
    report("SIGKILL restart", {
      dataDirEntries: readdirSync(restarted.dataDir),
      backInBalancerAfterMs: Date.now() - upAt,
    });
  }, 120_000);
});
