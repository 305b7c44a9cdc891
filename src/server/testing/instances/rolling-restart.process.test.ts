import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Answer, countByStatus, missingClickIds, startClickLoad } from "./click-load";
import { type Cluster, startCluster } from "./cluster";
import { type Partners, setUpPartners } from "./partners";
import { haproxyMissing, printOutputOnFailure, report } from "./process-suite";

const failed = (answers: Answer[]) => answers.filter((answer) => answer.status === 0 || answer.status >= 500);

/**
 * A rolling deploy: each instance in turn gets SIGTERM and is replaced by a new one on an empty
 * DATA_DIR. Its /readyz answers 503 at once, HAProxy takes it out of rotation within its checks,
 * and it closes only after SHUTDOWN_DRAIN_SECONDS: under a click load, no request fails.
 */
describe.skipIf(haproxyMissing("a rolling restart behind HAProxy"))(
  "a rolling restart behind HAProxy",
  () => {
    let cluster: Cluster;
    let partners: Partners;
    beforeAll(async () => {
      cluster = await startCluster({ env: { SHUTDOWN_DRAIN_SECONDS: "2" } });
      partners = await setUpPartners(cluster.balancer.origin, cluster.mail);
    }, 120_000);
    afterAll(async () => {
      await cluster?.stop();
    });
    printOutputOnFailure(() => cluster?.output());

    it("replaces both instances one after the other without a failed request", async () => {
      const { balancer } = cluster;
      const load = startClickLoad(partners.shortUrl, { concurrency: 6, tag: "rolling" });
      const figures: Record<string, unknown> = {};
      try {
        for (const name of ["a", "b"] as const) {
          await load.waitForAnswer(
            `a click answered by ${name}`,
            (a) => a.servedBy === name && a.status === 302,
          );
          await sleep(500);
          const signalledAt = Date.now();
          const exited = cluster.instances[name].stop();
          const downAt = await balancer.waitForStatus(name, "DOWN", 5000);
          const code = await exited;
          const exitedAt = Date.now();
          figures[name] = { markedDownAfterMs: downAt - signalledAt, exitedAfterMs: exitedAt - signalledAt };
          expect(code).toBe(0);
          expect(downAt).toBeLessThanOrEqual(exitedAt);
          await cluster.restart(name);
          await balancer.waitForStatus(name, "UP", 10_000);
        }
        await load.waitForAnswer(
          "a click answered by the new a",
          (a) => a.servedBy === "a" && a.status === 302,
        );
      } finally {
        await load.stop();
      }
      const ids = load.redirectedIds();
      const missing = await missingClickIds(cluster.postgres.url, ids);
      report("rolling restart", {
        ...figures,
        byStatus: countByStatus(load.answers),
        missing: missing.length,
      });
      expect(failed(load.answers)).toEqual([]);
      expect(missing.length, `answered but not stored, e.g. ${missing.slice(0, 3).join(", ")}`).toBe(0);
    }, 120_000);
  },
);
