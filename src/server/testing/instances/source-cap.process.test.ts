import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "../local-servers";
import { type Cluster, startCluster } from "./cluster";
import { browserAgent, must, type Partners, setUpPartners } from "./partners";
import { haproxyMissing, printOutputOnFailure } from "./process-suite";

const REPLAYS = 35;

/**
 * Issue 36 §1: two instances behind HAProxy share Redis, so the daily allowance of a network source
 * (3 counted clicks per sender → advertiser pair) holds across them. The client address is read as
 * TRUST_PROXY says: 2 proxies, a CDN that writes the reader's address into X-Forwarded-For and
 * HAProxy that appends the CDN's (`option forwardfor`), so the address the rule judges is the
 * CDN's entry, not HAProxy's loopback one (which would be exempt).
 */
describe.skipIf(haproxyMissing("the source cap across instances behind HAProxy"))(
  "the source cap across two instances behind HAProxy",
  () => {
    let cluster: Cluster;
    let partners: Partners;
    beforeAll(async () => {
      cluster = await startCluster({ env: { TRUST_PROXY: "2" }, forwardFor: true });
      partners = await setUpPartners(cluster.balancer.origin, cluster.mail, { prefix: "cap" });
    }, 120_000);
    afterAll(async () => {
      await cluster?.stop();
    });
    printOutputOnFailure(() => cluster?.output());

    const follow = (forwardedFor: string, agent: string) =>
      fetch(partners.shortUrl, {
        redirect: "manual",
        headers: { "user-agent": browserAgent(agent), "x-forwarded-for": forwardedFor },
      });

    const reasons = async () =>
      Object.fromEntries(
        (
          await query<{ reason: string; clicks: number }>(
            cluster.postgres.url,
            "select reason, count(*)::int as clicks from click_events where source_org_id = $1 group by reason",
            [partners.sharerId],
          )
        ).map((row) => [row.reason, row.clicks]),
      );

    it("counts 3 of 35 clicks from one address with a new user agent each, whichever instance answers", async () => {
      const servedBy = new Set<string>();
      for (let i = 0; i < REPLAYS; i++) {
        const response = await follow("203.0.113.9", `replay-${i}-${Math.random()}`);
        expect(response.status).toBe(302);
        servedBy.add(response.headers.get("x-served-by") ?? "?");
      }
      expect([...servedBy].sort()).toEqual(["a", "b"]);
      expect(await reasons()).toEqual({ counted: 3, source_cap: REPLAYS - 3 });
      expect(await must(cluster.balancer.origin, "/api/metrics/clicks", partners.partnerToken)).toEqual({
        sent: 0,
        received: 3,
      });
    });

    it("counts 35 from 35 network sources, and another /24 has its own allowance", async () => {
      for (let i = 0; i < REPLAYS; i++) {
        expect((await follow(`198.51.${i}.20`, `source-${i}`)).status).toBe(302);
      }
      expect(await reasons()).toEqual({ counted: 3 + REPLAYS, source_cap: REPLAYS - 3 });
    });
  },
);
