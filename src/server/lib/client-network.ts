import ipaddr from "ipaddr.js";

/**
 * The network a client address stands for in per-client limits: an IPv4 address itself (an
 * IPv4-mapped IPv6 address as that IPv4 address), an IPv6 address as its /64. One host is handed a
 * whole /64 by its provider, so counting its addresses one by one would give it 2⁶⁴ allowances.
 * Anything that does not parse is returned as it is.
 */
export function clientNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(":")}::/64`;
}

/**
 * The network source of the click rules (CONTRACT §5): an IPv4 address as its /24, an IPv6
 * address as its /64 (an IPv4-mapped one as IPv4). A provider hands one customer a /64, and a
 * /24 is the smallest block routed on the Internet, so a single party rarely holds two; an
 * office, a café or a carrier's NAT behind one is many people, which is why it is a small daily
 * allowance rather than one click. Null for a loopback address (a trial on one machine: the
 * visitor rule alone judges it). Anything that does not parse is its own source.
 */
export function networkSource(address: string): string | null {
  if (!ipaddr.isValid(address)) return address || null;
  const parsed = ipaddr.process(address);
  if (parsed.range() === "loopback") return null;
  if (parsed.kind() === "ipv4") {
    const [a, b, c] = (parsed as ipaddr.IPv4).octets;
    return `${a}.${b}.${c}.0/24`;
  }
  return clientNetwork(address);
}
