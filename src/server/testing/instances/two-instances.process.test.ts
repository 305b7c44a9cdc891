import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "../local-servers";
import { type Cluster, startCluster } from "./cluster";
import { browserAgent, call, clickIdOf, must, type Partners, setUpPartners } from "./partners";
import { haproxyMissing, printOutputOnFailure, report } from "./process-suite";

/**
 * Two instances behind HAProxy share nothing but PostgreSQL, Redis and APP_SECRET (issue 16 §4):
 * a whole journey through the balancer counts exactly, and a change made on one instance reaches
 * the other's caches within a second.
 */
describe.skipIf(haproxyMissing("two instances behind HAProxy"))("two instances behind HAProxy", () => {
  let cluster: Cluster;
  let partners: Partners;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  printOutputOnFailure(() => cluster?.output());

  it("counts a whole journey exactly: sign-up, Buddies, ad, short link, clicks, a pixel lead, metrics", async () => {
    const { balancer, mail } = cluster;
    const origin = balancer.origin;
    partners = await setUpPartners(origin, mail);
    expect(partners.shortUrl.startsWith(`${origin}/s/`)).toBe(true);

    // N readers open the link once each, and the first opens it again: a repeat within the hour
    // is kept but not counted, whichever instance it reaches (the memory is in Redis).
    const READERS = 12;
    const clickIds: string[] = [];
    const servedBy = new Set<string>();
    for (let reader = 0; reader <= READERS; reader++) {
      const response = await fetch(partners.shortUrl, {
        redirect: "manual",
        headers: { "user-agent": browserAgent(`journey-${reader % READERS}`) },
      });
      expect(response.status).toBe(302);
      const id = clickIdOf(response);
      expect(id).toBeTruthy();
      clickIds.push(id ?? "");
      servedBy.add(response.headers.get("x-served-by") ?? "?");
    }
    expect([...servedBy].sort()).toEqual(["a", "b"]);
    expect(new Set(clickIds).size).toBe(READERS + 1);

    // The landing page's pixel records a lead for the first click; the same lead again (on the
    // other instance) is the same lead.
    const pixel = `${origin}/api/marketing/conversion/${clickIds[0]}?type=signup&org=${partners.partnerId}`;
    for (let i = 0; i < 2; i++) {
      const response = await fetch(pixel, { headers: { "user-agent": browserAgent("journey-0") } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("image/gif");
      await response.arrayBuffer();
    }

    // Read at once, on both instances: an answered click is already in the shared database.
    const { sharerToken, partnerToken } = partners;
    for (let round = 0; round < 2; round++) {
      expect((await must(origin, "/api/metrics/clicks", sharerToken)) as object).toEqual({
        sent: READERS,
        received: 0,
      });
      expect((await must(origin, "/api/metrics/clicks", partnerToken)) as object).toEqual({
        sent: 0,
        received: READERS,
      });
      expect((await must(origin, "/api/metrics/leads", sharerToken)) as object).toEqual({
        sent: 1,
        received: 0,
      });
      expect((await must(origin, "/api/metrics/leads", partnerToken)) as object).toEqual({
        sent: 0,
        received: 1,
      });
      const daily = await must<Array<{ clicksSent: number; leadsSent: number }>>(
        origin,
        "/api/metrics/daily",
        sharerToken,
      );
      expect(daily.reduce((sum, day) => sum + day.clicksSent, 0)).toBe(READERS);
      expect(daily.reduce((sum, day) => sum + day.leadsSent, 0)).toBe(1);
    }
    // Every hit is kept, the repeat too.
    const [{ count }] = (await query<{ count: string }>(
      cluster.postgres.url,
      "select count(*) from click_events where id = any($1::text[])",
      [clickIds],
    )) as [{ count: string }];
    expect(Number(count)).toBe(READERS + 1);
    report("journey", { clicks: READERS + 1, counted: READERS, leads: 1, servedBy: [...servedBy] });
  }, 60_000);

  /** Polls `url` on `origin` with `key` until `gone` holds: the delay in ms. */
  async function delayUntil(
    origin: string,
    key: string,
    gone: (response: Response, body: string) => boolean,
  ) {
    const started = performance.now();
    for (;;) {
      const response = await fetch(`${origin}/api/ads?format=json`, { headers: { "x-api-key": key } });
      if (gone(response, await response.text())) return Math.round(performance.now() - started);
      if (performance.now() - started > 10_000) throw new Error("still there after 10 s");
      await sleep(10);
    }
  }

  it("refuses on instance B, within a second, a key revoked through instance A", async () => {
    expect(partners, "the journey set up the organizations").toBeDefined();
    const { a, b } = cluster.instances;
    const { id, key } = await must<{ id: string; key: string }>(
      cluster.balancer.origin,
      "/api/api-keys",
      partners.sharerToken,
      {
        method: "POST",
        body: JSON.stringify({ name: "revoked on a" }),
      },
    );
    // B has the key in its cache before the revocation.
    expect((await fetch(`${b.origin}/api/ads?format=json`, { headers: { "x-api-key": key } })).status).toBe(
      200,
    );
    expect(
      (await call(a.origin, `/api/api-keys/${id}`, partners.sharerToken, { method: "DELETE" })).status,
    ).toBe(204);
    const delayMs = await delayUntil(b.origin, key, (response) => response.status === 401);
    report("key revocation", { delayMs });
    expect(delayMs).toBeLessThan(1000);
  });

  it("drops from instance B's Ads API, within a second, collateral archived on instance A", async () => {
    expect(partners, "the journey set up the organizations").toBeDefined();
    const { a, b } = cluster.instances;
    const { key } = await must<{ key: string }>(
      cluster.balancer.origin,
      "/api/api-keys",
      partners.sharerToken,
      {
        method: "POST",
        body: JSON.stringify({ name: "ads on b" }),
      },
    );
    const before = await fetch(`${b.origin}/api/ads?format=json`, { headers: { "x-api-key": key } });
    expect(before.status).toBe(200);
    const { ads } = (await before.json()) as { ads: Array<{ id: string }> };
    expect(ads.map((ad) => ad.id)).toContain(partners.collateralId);

    await must(a.origin, `/api/marketing/collateral/${partners.collateralId}`, partners.partnerToken, {
      method: "PATCH",
      body: JSON.stringify({ status: "archived" }),
    });
    // Its only ad archived, the sharer has none left: 404, or a list without it.
    const delayMs = await delayUntil(
      b.origin,
      key,
      (response, body) =>
        response.status === 404 || (response.status === 200 && !body.includes(partners.collateralId)),
    );
    report("collateral archive", { delayMs });
    expect(delayMs).toBeLessThan(1000);
  });
});
