import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("loadConfig", () => {
  it("applies the CONTRACT §1 defaults", () => {
    const config = loadConfig({}, "/srv/buddy");
    expect(config).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      publicUrl: "http://localhost:3000",
      dataDir: "/srv/buddy/data",
      databaseUrl: undefined,
      smtpUrl: undefined,
      redisUrl: undefined,
      rateLimitPerIp: 30,
      pixelRateLimitPerIp: 20,
      outboundAllowPrivate: false,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it("derives PUBLIC_URL from PORT and trims a trailing slash", () => {
    expect(loadConfig({ PORT: "8080" }).publicUrl).toBe("http://localhost:8080");
    expect(loadConfig({ PUBLIC_URL: "https://buddy.example/" }).publicUrl).toBe("https://buddy.example");
  });

  it("stops with every bad value listed", () => {
    const attempt = () => loadConfig({ PORT: "abc", DATABASE_URL: "mysql://x", RATE_LIMIT_PER_IP: "-1" });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain("PORT");
      expect(message).toContain("DATABASE_URL");
      expect(message).toContain("RATE_LIMIT_PER_IP");
    }
  });

  it("reads OUTBOUND_ALLOW_PRIVATE and RATE_LIMIT_PER_IP=0", () => {
    const config = loadConfig({ OUTBOUND_ALLOW_PRIVATE: "true", RATE_LIMIT_PER_IP: "0" });
    expect(config.outboundAllowPrivate).toBe(true);
    expect(config.rateLimitPerIp).toBe(0);
  });

  it("opens no metrics listener unless METRICS_PORT is set, on HOST unless METRICS_HOST says otherwise", () => {
    expect(loadConfig({}).metrics).toEqual({ port: undefined, host: "127.0.0.1" });
    expect(loadConfig({ METRICS_PORT: "" }).metrics.port).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: "9464", HOST: "0.0.0.0" }).metrics).toEqual({
      port: 9464,
      host: "0.0.0.0",
    });
    expect(loadConfig({ METRICS_PORT: "9464", METRICS_HOST: "10.0.0.5" }).metrics.host).toBe("10.0.0.5");
    expect(() => loadConfig({ METRICS_PORT: "70000" })).toThrow(/METRICS_PORT/);
  });

  it("reads LOG_FORMAT, pretty or json; unset or empty leaves it to the terminal", () => {
    expect(loadConfig({}).logFormat).toBeUndefined();
    expect(loadConfig({ LOG_FORMAT: "" }).logFormat).toBeUndefined();
    expect(loadConfig({ LOG_FORMAT: "pretty" }).logFormat).toBe("pretty");
    expect(loadConfig({ LOG_FORMAT: "json" }).logFormat).toBe("json");
    expect(() => loadConfig({ LOG_FORMAT: "text" })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_FORMAT: "text" })).toThrow('LOG_FORMAT: must be "pretty" or "json"');
  });

  it("drains for SHUTDOWN_DRAIN_SECONDS after SIGTERM, 5 by default", () => {
    expect(loadConfig({}).shutdownDrainSeconds).toBe(5);
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: "0" }).shutdownDrainSeconds).toBe(0);
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: "1.5" }).shutdownDrainSeconds).toBe(1.5);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: "-1" })).toThrow(/SHUTDOWN_DRAIN_SECONDS/);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: "soon" })).toThrow(/SHUTDOWN_DRAIN_SECONDS/);
  });

  it("gives a client REQUEST_TIMEOUT_SECONDS to send its request, 30 by default", () => {
    expect(loadConfig({}).requestTimeoutSeconds).toBe(30);
    expect(loadConfig({ REQUEST_TIMEOUT_SECONDS: "1.5" }).requestTimeoutSeconds).toBe(1.5);
    expect(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: "0" })).toThrow(/REQUEST_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: "soon" })).toThrow(/REQUEST_TIMEOUT_SECONDS/);
  });
  describe("TRUST_PROXY", () => {
    const trust = (value: string | undefined) => loadConfig({ TRUST_PROXY: value }).trustProxy;

    it("is off unset, empty or false", () => {
      expect(trust(undefined)).toBe(false);
      expect(trust("")).toBe(false);
      expect(trust("false")).toBe(false);
      expect(trust("0")).toBe(false);
    });

    it("counts proxies: true is one hop, never trust-everything; a number is that many", () => {
      expect(trust("true")).toEqual({ hops: 1 });
      expect(trust("1")).toEqual({ hops: 1 });
      expect(trust("2")).toEqual({ hops: 2 });
    });

    it("takes proxy addresses and CIDRs, IPv4 and IPv6, comma-separated", () => {
      expect(trust("10.0.0.1, 10.0.0.0/8")).toEqual({ proxies: ["10.0.0.1", "10.0.0.0/8"] });
      expect(trust("::1")).toEqual({ proxies: ["::1"] });
      expect(trust("fd00::/8")).toEqual({ proxies: ["fd00::/8"] });
      expect(trust(" 192.168.1.10 ,fd00::/8,::ffff:10.0.0.1 ")).toEqual({
        proxies: ["192.168.1.10", "fd00::/8", "::ffff:10.0.0.1"],
      });
    });

    it.each([
      ["garbage", /"garbage" is not an IP address or CIDR/],
      ["-1", /"-1" is not a number of proxies \(1 or more\)/],
      ["99999999999999999999", /is not a number of proxies/],
      ["1.2.3.4/33", /"1\.2\.3\.4\/33": the prefix length must be a whole number from 1 to 32/],
      ["fd00::/129", /from 1 to 128/],
      ["10.0.0.0/255.0.0.0", /prefix length/],
      ["0.0.0.0/0", /would trust every address/],
      ["::/0", /would trust every address/],
      ["10.0.0.1,", /an empty entry/],
      ["010.0.0.1", /is not an IP address/],
      ["yes", /is not an IP address/],
      ["TRUE", /is not an IP address/],
      ["loopback", /is not an IP address/],
    ])("refuses %s with a message naming TRUST_PROXY", (value, message) => {
      expect(() => trust(value)).toThrow(ConfigError);
      expect(() => trust(value)).toThrow(/TRUST_PROXY: /);
      expect(() => trust(value)).toThrow(message);
    });

    it("names every bad entry of a list", () => {
      expect(() => trust("10.0.0.1, nope, 10.0.0.0/99")).toThrow(/"nope"[\s\S]*"10\.0\.0\.0\/99"/);
    });
  });
});
