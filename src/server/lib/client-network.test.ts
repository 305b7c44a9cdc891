import { describe, expect, it } from "vitest";
import { clientNetwork } from "./client-network";

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
