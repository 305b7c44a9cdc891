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
