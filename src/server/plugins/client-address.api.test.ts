import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, createTestApp, type TestApp } from "../testing/app";

// The client address every per-client rule reads (request.ip), seen through one of them: the
// conversion pixel records one new lead a minute per client here, so a second lead from the same
// client is 429 and one from another client is 200.

type Log = Array<{ level: number; msg: string }>;
const WARNING = /X-Forwarded-For while TRUST_PROXY is off/;

type TrustingApp = {
  t: TestApp;
  /** The app's warnings and errors. */
  log: Log;
  /** A new lead's pixel path (each its own click id). */
  pixelPath(): string;
  /** New leads' pixels, one after the other, each from a socket address with an X-Forwarded-For: their statuses. */
  pixels(requests: Array<[remoteAddress: string, forwardedFor: string]>): Promise<number[]>;
};

/** An app with this TRUST_PROXY for the describe block it is called in. */
function appTrusting(trustProxy: string): TrustingApp {
  const log: Log = [];
  const app = { log } as TrustingApp;
  beforeAll(async () => {
    const t = await createTestApp({
      env: { TRUST_PROXY: trustProxy, PIXEL_RATE_LIMIT_PER_IP: "1" },
      logger: { level: "warn", stream: { write: (line: string) => log.push(JSON.parse(line)) } },
    });
    const sharer = await createOrganization(t, "xffsharer");
    const partner = await createOrganization(t, "xffpartner");
    app.t = t;
    app.pixelPath = () =>
      `/api/marketing/conversion/${t.app.tracker.clickIds.issue(
        sharer.organizationId,
        partner.organizationId,
        Date.now(),
      )}?type=signup&org=${partner.organizationId}`;
    app.pixels = async (requests) => {
      const statuses: number[] = [];
      for (const [remoteAddress, forwardedFor] of requests) {
        const headers = { "x-forwarded-for": forwardedFor };
        statuses.push((await t.app.inject({ url: app.pixelPath(), remoteAddress, headers })).statusCode);
      }
      return statuses;
    };
  });
  afterAll(() => app.t?.close());
  return app;
}

describe("TRUST_PROXY=true (one proxy)", () => {
  const app = appTrusting("true");

  it("takes the entry the balancer appended; what the client wrote before it changes nothing", async () => {
    const balancer = "10.0.0.2";
    // The client 203.0.113.5 wrote "X-Forwarded-For: 198.51.100.7"; the balancer appended its address.
    // Then the same client with other entries of its own, and another client (203.0.113.6) writing
    // the same forged entry, which has its own allowance.
    const statuses = await app.pixels([
      [balancer, "198.51.100.7, 203.0.113.5"],
      [balancer, "192.0.2.1, 203.0.113.5"],
      [balancer, "203.0.113.5"],
      [balancer, "192.0.2.2, 192.0.2.3, 203.0.113.5"],
      [balancer, "198.51.100.7, 203.0.113.6"],
    ]);
    expect(statuses).toEqual([200, 429, 429, 429, 200]);
  });

  it("counts an IPv6 client as its /64: another address of the same network has no allowance of its own", async () => {
    const statuses = await app.pixels([
      ["10.0.0.2", "2001:db8:1:2::77"],
      ["10.0.0.2", "2001:db8:1:2::78"],
      ["10.0.0.2", "2001:db8:1:2:ffff:ffff:ffff:ffff"],
      ["10.0.0.2", "2001:db8:1:3::1"],
    ]);
    expect(statuses).toEqual([200, 429, 429, 200]);
  });

  it("logs no warning for forwarded requests", async () => {
    const origin = await app.t.app.listen({ port: 0, host: "127.0.0.1" });
    await fetch(`${origin}/healthz`, { headers: { "x-forwarded-for": "203.0.113.70" } });
    expect(app.log.filter((line) => WARNING.test(line.msg))).toEqual([]);
  });
});

describe("TRUST_PROXY as proxy addresses and CIDRs", () => {
  const app = appTrusting("10.0.0.0/8, fd00::/8");

  it("takes the right-most entry that is not a trusted proxy", async () => {
    // A CDN and a balancer (10.0.0.0/8 and fd00::/8 here) in front: the client is 203.0.113.5, then
    // 203.0.113.7, the right-most untrusted entry, with 203.0.113.5 forged on its left.
    const statuses = await app.pixels([
      ["10.1.2.3", "198.51.100.7, 203.0.113.5, 10.9.9.9"],
      ["fd00::5", "192.0.2.1, 203.0.113.5, fd00::1"],
      ["10.1.2.3", "203.0.113.5, 10.9.9.9"],
      ["10.1.2.3", "203.0.113.5, 203.0.113.7, 10.9.9.9"],
    ]);
    expect(statuses).toEqual([200, 429, 429, 200]);
  });

  it("ignores the header from a peer that is not a trusted proxy", async () => {
    const statuses = await app.pixels([
      ["198.51.100.200", "203.0.113.8"],
      ["198.51.100.200", "203.0.113.9"],
    ]);
    expect(statuses).toEqual([200, 429]);
  });
});

describe("TRUST_PROXY off", () => {
  const app = appTrusting("false");

  it("ignores X-Forwarded-For and warns once per process, not per request", async () => {
    const injected = await app.pixels([
      ["203.0.113.20", "198.51.100.1"],
      ["203.0.113.20", "198.51.100.2"],
      ["203.0.113.21", "198.51.100.1"],
    ]);
    expect(injected).toEqual([200, 429, 200]);

    const origin = await app.t.app.listen({ port: 0, host: "127.0.0.1" });
    const statuses: number[] = [];
    for (const forged of ["198.51.100.3", "198.51.100.4", "198.51.100.5"]) {
      const response = await fetch(`${origin}${app.pixelPath()}`, { headers: { "x-forwarded-for": forged } });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 429, 429]);
    const warnings = app.log.filter((line) => WARNING.test(line.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, remoteAddress: "127.0.0.1" });
  });
});
