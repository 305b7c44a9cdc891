import { describe, expect, it } from "vitest";
import { clientNetwork, networkSource } from "./client-network";

describe("clientNetwork", () => {
  it("keeps an IPv4 address, and an IPv4-mapped one as IPv4", () => {
    expect(clientNetwork("192.0.2.7")).toBe("192.0.2.7");
    expect(clientNetwork("::ffff:192.0.2.7")).toBe("192.0.2.7");
  });

  it("counts an IPv6 address as its /64, however it is written", () => {
    const network = clientNetwork("2001:db8:1:2::77");
    expect(network).toBe("2001:db8:1:2::/64");
    expect(clientNetwork("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe(network);
    expect(clientNetwork("2001:db8:1:3::1")).not.toBe(network);
    expect(clientNetwork("::1")).toBe("0:0:0:0::/64");
  });

  it("returns what is not an address as it is", () => {
    expect(clientNetwork("unknown")).toBe("unknown");
    expect(clientNetwork("")).toBe("");
  });
});

describe("networkSource", () => {
  it("takes an IPv4 address as its /24, an IPv4-mapped one alike", () => {
    expect(networkSource("192.0.2.7")).toBe("192.0.2.0/24");
    expect(networkSource("192.0.2.250")).toBe("192.0.2.0/24");
    expect(networkSource("::ffff:192.0.2.7")).toBe("192.0.2.0/24");
    expect(networkSource("192.0.3.7")).not.toBe(networkSource("192.0.2.7"));
  });

  it("takes an IPv6 address as its /64", () => {
    expect(networkSource("2001:db8:1:2::77")).toBe("2001:db8:1:2::/64");
    expect(networkSource("2001:db8:1:2:ffff::1")).toBe("2001:db8:1:2::/64");
  });

  it("has none for a loopback address", () => {
    expect(networkSource("127.0.0.1")).toBeNull();
    expect(networkSource("127.9.8.7")).toBeNull();
    expect(networkSource("::1")).toBeNull();
    expect(networkSource("::ffff:127.0.0.1")).toBeNull();
  });
});
