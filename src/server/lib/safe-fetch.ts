import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, type Dispatcher, request } from "undici";

/**
 * Requests to user-supplied URLs that cannot be turned against our own network (SSRF): GETs of
 * site metadata, logos and domain proofs, and the POSTs of webhook deliveries. The rules, and why:
 * - http/https only, no credentials in the URL, default ports only: no file:, gopher: or
 *   cross-protocol tricks against SMTP/Redis-style services on odd ports.
 * - `localhost`/`*.localhost` and literal IPs are judged before any connection.
 * - Host names are resolved inside the socket's own `lookup`: every address the resolver returns
 *   must pass `isPublicAddress`, and the socket connects to exactly those checked addresses. There
 *   is no second resolution between check and connect, so DNS rebinding has no window. With
 *   `keepAlive` the name is resolved and checked at the start of each call instead, and the call
 *   goes over a kept connection only to an address that check passed (else a new one, to it).
 * - Redirects are followed by hand and each hop is judged like the first URL, and by the caller's
 *   `followRedirect` when it gives one.
 * - One deadline covers every hop and the body; the body is capped.
 * - A failure says how far it got, so a caller can tell "nothing to connect to" (`network`: the
 *   only case where trying http after https makes sense) from a TLS failure (`tls`: someone
 *   answered with a certificate that does not verify, which http would only sidestep) and from a
 *   site that connected and then broke off (`connection_lost`) or stalled (`timeout`).
 * `allowPrivate` (CONTRACT §1 OUTBOUND_ALLOW_PRIVATE) lifts the address and port rules, for tests
 * against local fixture sites only; scheme and credential rules still apply.
 */

export type OutboundFetchReason =
  | "invalid_url"
  | "blocked_address"
  | "too_many_redirects"
  /** The caller's `followRedirect` refused the target; `url` is that target. */
  | "redirect_refused"
  | "timeout"
  | "too_large"
  /** Nothing could be connected to: no address, refused, unreachable, connect timeout, no TLS spoken. */
  | "network"
  /** The TLS handshake failed: a certificate that does not verify, or no common protocol. */
  | "tls"
  /** Connected, then the connection broke before a whole answer arrived. */
  | "connection_lost"
  | "http_status";

export class OutboundFetchError extends Error {
  readonly reason: OutboundFetchReason;
  /** The URL being fetched when it failed (after redirects), when known. */
  readonly url: string | undefined;

  constructor(reason: OutboundFetchReason, message: string, options: { url?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "OutboundFetchError";
    this.reason = reason;
    this.url = options.url;
  }
}

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Host name → every address it resolves to. Injectable so tests can map names without DNS. */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export type SafeFetchOptions = {
  /** Default GET. A POST's redirects are refused unless `maxRedirects` allows them. */
  method?: "GET" | "POST";
  body?: string;
  /** OUTBOUND_ALLOW_PRIVATE: lift the address and port rules (local fixture sites in tests). */
  allowPrivate?: boolean;
  /** Whole exchange, every redirect and the body included. Default 5 s. */
  timeoutMs?: number;
  /** Body cap in bytes. Default 1 MB. */
  maxBytes?: number;
  /** Past the cap: false (default) fails with `too_large`; true keeps the first maxBytes bytes. */
  truncate?: boolean;
  /** Default 3. */
  maxRedirects?: number;
  /**
   * Judges each redirect target (and the URL redirecting to it) before it is asked for; false
   * fails with `redirect_refused`.
   */
  followRedirect?: (target: URL, from: URL) => boolean;
  /** Added to (and overriding) the default User-Agent and Accept. */
  headers?: Record<string, string>;
  lookup?: HostLookup;
  /** Address policy; default `isPublicAddress`. Tests swap it to stand a loopback server in for a public host. */
  isAllowedAddress?: (address: string) => boolean;
  /** Ports allowed when !allowPrivate. Default 80 and 443. */
  allowedPorts?: readonly number[];
  /**
   * Keep connections open for later calls (webhook deliveries). Each call still resolves the
   * name and checks every address it gets; it goes over a kept connection only to an address
   * that this call's check passed, and over a new one to it otherwise.
   */
  keepAlive?: boolean;
};

export type SafeFetchResult = {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
};

export const DEFAULT_USER_AGENT = "BuddyBot/1.0 (+https://buddy.example/bot)";
const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = new Set(["authorization", "cookie", "proxy-authorization"]);

/**
 * Only ordinary public unicast is reachable. ipaddr.js names every special range (loopback,
 * private, link-local incl. 169.254.169.254 cloud metadata, CGNAT, multicast, broadcast, reserved,
 * unique-local, NAT64, 6to4, Teredo…); anything it does not call 'unicast' is refused.
 * IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it carries. IPv6 must also
 * sit in global unicast 2000::/3, which drops IPv4-compatible (::127.0.0.1) and other oddities.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.range() !== "unicast") return false;
  if (parsed.kind() === "ipv6") return parsed.match(ipaddr.IPv6.parse("2000::"), 3);
  return true;
}

type Policy = {
  allowPrivate: boolean;
  isAllowedAddress: (address: string) => boolean;
  allowedPorts: readonly number[];
  lookup: HostLookup;
};

const systemLookup: HostLookup = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/**
 * The rules a URL can be judged by before any request (scheme, credentials, port, local names and
 * literal addresses), for a form that stores a URL to fetch later: the error, or null. Names are
 * judged only when they are resolved, at each fetch.
 */
export function outboundUrlProblem(
  input: string,
  options: Pick<SafeFetchOptions, "allowPrivate" | "allowedPorts"> = {},
): OutboundFetchError | null {
  try {
    checkUrl(input, {
      allowPrivate: options.allowPrivate ?? false,
      isAllowedAddress: isPublicAddress,
      allowedPorts: options.allowedPorts ?? [80, 443],
      lookup: systemLookup,
    });
    return null;
  } catch (error) {
    if (error instanceof OutboundFetchError) return error;
    throw error;
  }
}

/** Scheme, credentials, port and the name/literal-IP rules; DNS-resolved names are judged at connect. */
function checkUrl(input: string, policy: Policy, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    throw new OutboundFetchError("invalid_url", "Not a valid URL", { url: input });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new OutboundFetchError("invalid_url", `Scheme ${url.protocol} is not allowed`, { url: input });
  }
  if (url.username || url.password) {
    throw new OutboundFetchError("invalid_url", "Credentials in the URL are not allowed", { url: input });
  }
  if (policy.allowPrivate) return url;

  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  if (!policy.allowedPorts.includes(port)) {
    throw new OutboundFetchError("blocked_address", `Port ${port} is not allowed`, { url: input });
  }
  // WHATWG URL has already canonicalised IPv4 spellings (2130706433, 0x7f.1 → 127.0.0.1).
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) {
    throw new OutboundFetchError("blocked_address", "Local host names are not allowed", { url: input });
  }
  if (isIP(host) && !policy.isAllowedAddress(host)) {
    throw new OutboundFetchError("blocked_address", `Address ${host} is not allowed`, { url: input });
  }
  return url;
}

/**
 * The socket's resolver (net.connect/tls.connect `lookup`). It resolves once, refuses the host if
 * ANY address is not allowed (a name mixing public and private answers is hostile or broken), and
 * hands the socket exactly the addresses it checked. Literal IPs never reach here: Node skips
 * lookup for them, which is why checkUrl judges them.
 */
async function resolveChecked(policy: Policy, hostname: string, family: number): Promise<ResolvedAddress[]> {
  let found: ResolvedAddress[];
  try {
    found = await policy.lookup(hostname);
  } catch (cause) {
    throw new OutboundFetchError("network", `Could not resolve ${hostname}`, { cause });
  }
  const blocked = policy.allowPrivate ? undefined : found.find((a) => !policy.isAllowedAddress(a.address));
  if (blocked) throw new OutboundFetchError("blocked_address", `${hostname} resolves to ${blocked.address}`);
  const usable = family ? found.filter((a) => a.family === family) : found;
  if (usable.length === 0) throw new OutboundFetchError("network", `${hostname} did not resolve`);
  return usable;
}

function guardedLookup(policy: Policy): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : (options.family ?? 0);
    resolveChecked(policy, hostname, family).then(
      (usable) => {
        const [first] = usable as [ResolvedAddress];
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: OutboundFetchError) => callback(error as NodeJS.ErrnoException, "", 0),
    );
  };
}

/** A socket's resolver that answers one address, already checked. */
function fixedLookup(checked: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [checked]);
    else callback(null, checked.address, checked.family);
  };
}

/**
 * Agents whose connections outlive a call (`keepAlive`), one per origin and checked address,
 * the least recently used first. A connection closes after a few idle seconds (undici's default,
 * shorter when the server says so), and an agent pushed out of the map once its requests are done.
 */
const keptAgents = new Map<string, Agent>();
const KEPT_AGENTS_MAX = 256;

function keptAgent(origin: string, checked: ResolvedAddress, timeoutMs: number): Agent {
  const key = `${origin} ${checked.address} ${timeoutMs}`;
  const kept = keptAgents.get(key);
  if (kept) {
    keptAgents.delete(key);
    keptAgents.set(key, kept);
    return kept;
  }
  const agent = new Agent({
    connect: { lookup: fixedLookup(checked), timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  keptAgents.set(key, agent);
  if (keptAgents.size > KEPT_AGENTS_MAX) {
    const [oldest] = keptAgents;
    if (oldest) {
      keptAgents.delete(oldest[0]);
      oldest[1].close().catch(() => {});
    }
  }
  return agent;
}

/**
 * The address this call connects to: a literal one as the URL gives it (checkUrl judged it), or
 * the name resolved now with every answer checked, preferring one a kept connection goes to.
 */
async function checkedAddress(url: URL, policy: Policy, timeoutMs: number): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(host);
  if (literal) return { address: host, family: literal === 6 ? 6 : 4 };
  const usable = (await resolveChecked(policy, host, 0)) as [ResolvedAddress, ...ResolvedAddress[]];
  return usable.find((a) => keptAgents.has(`${url.origin} ${a.address} ${timeoutMs}`)) ?? usable[0];
}

/** Walks the cause chain: undici may wrap the error our lookup raised. */
function findOutboundError(error: unknown): OutboundFetchError | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof OutboundFetchError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Failures of the TLS layer itself: certificate verification (Node names X509 codes bare) and OpenSSL's. */
const TLS_FAILURE =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$|INVALID_CA$|INVALID_PURPOSE$|PATH_LENGTH_EXCEEDED$|EPROTO$)/;
/** The peer answered, but not in TLS (plain http on 443): there is no https to verify, as if nothing listened. */
const TLS_NOT_SPOKEN = new Set(["ERR_SSL_WRONG_VERSION_NUMBER", "ERR_SSL_PACKET_LENGTH_TOO_LONG"]);

/** What a TLS failure means to whoever runs the site, in a few words. */
function describeTlsFailure(code: string): string {
  switch (code) {
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "SELF_SIGNED_CERT_IN_CHAIN":
      return "self-signed certificate";
    case "CERT_HAS_EXPIRED":
      return "the certificate has expired";
    case "CERT_NOT_YET_VALID":
      return "the certificate is not valid yet";
    case "ERR_TLS_CERT_ALTNAME_INVALID":
    case "HOSTNAME_MISMATCH":
      return "the certificate is for another host name";
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "UNABLE_TO_GET_ISSUER_CERT":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
      return "the certificate's chain is incomplete or not from a trusted authority";
    default:
      return code.startsWith("ERR_SSL_") || code === "EPROTO"
        ? "the secure connection could not be set up"
        : "the certificate could not be verified";
  }
}

/** The first error code on the cause chain: undici may wrap the socket's error. */
function errorCode(error: unknown): string {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === "string") return code;
    current = cause;
  }
  return "";
}

function toOutboundError(
  error: unknown,
  { deadline, url, connected }: { deadline: AbortSignal; url: string; connected: boolean },
): OutboundFetchError {
  const own = findOutboundError(error);
  if (own) return own.url ? own : new OutboundFetchError(own.reason, own.message, { url, cause: own.cause });
  const code = errorCode(error);
  if (TLS_FAILURE.test(code) && !TLS_NOT_SPOKEN.has(code)) {
    return new OutboundFetchError("tls", describeTlsFailure(code), { url, cause: error });
  }
  // A connection (TCP, and TLS for https) never made, even for lack of time, is a site not there.
  if (!connected)
    return new OutboundFetchError("network", "The site could not be reached", { url, cause: error });
  if (deadline.aborted || /TIMEOUT/.test(code)) {
    return new OutboundFetchError("timeout", "The site took too long to answer", { url, cause: error });
  }
  return new OutboundFetchError("connection_lost", "The site broke off its answer", { url, cause: error });
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

async function readBody(
  body: Dispatcher.ResponseData["body"],
  declaredLength: number,
  { maxBytes, truncate, url }: { maxBytes: number; truncate: boolean; url: string },
): Promise<{ body: Buffer; truncated: boolean }> {
  const tooLarge = () => new OutboundFetchError("too_large", `Response over ${maxBytes} bytes`, { url });
  // Refuse early on an honest Content-Length; the running count below catches dishonest ones.
  if (!truncate && declaredLength > maxBytes) {
    // Destroying an unread undici body emits an abort error; nobody is waiting for it.
    body.on("error", () => {});
    body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    // Leaving the loop (return/throw) closes the stream: the rest is never downloaded.
    if (size + chunk.length > maxBytes) {
      if (!truncate) throw tooLarge();
      chunks.push(chunk.subarray(0, maxBytes - size));
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

export async function safeFetch(input: string, options: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const policy: Policy = {
    allowPrivate: options.allowPrivate ?? false,
    isAllowedAddress: options.isAllowedAddress ?? isPublicAddress,
    allowedPorts: options.allowedPorts ?? [80, 443],
    lookup: options.lookup ?? systemLookup,
  };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? (options.method === "POST" ? 0 : DEFAULT_MAX_REDIRECTS);
  const truncate = options.truncate ?? false;
  let headers: Record<string, string> = {
    "user-agent": DEFAULT_USER_AGENT,
    accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
    ...Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
  };

  const deadline = AbortSignal.timeout(timeoutMs);
  // Without keepAlive, one agent per call: its connections are made by our guarded lookup and
  // never pooled with connections made under another policy.
  const agent = options.keepAlive
    ? null
    : new Agent({
        connect: { lookup: guardedLookup(policy), timeout: timeoutMs },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
  // Emitted once the socket is up (after the TLS handshake for https), per origin.
  const connectedOrigins = new Set<string>();
  agent?.on("connect", (origin) => connectedOrigins.add(origin.origin));
  // A kept agent's request may go over a connection already up: it connected unless connecting failed.
  const failedOrigins = new Set<string>();
  const onConnectionError = (origin: URL) => failedOrigins.add(origin.origin);
  let kept: Agent | null = null;
  let current = input;
  try {
    let url = checkUrl(input, policy);
    current = url.href;
    for (let redirects = 0; ; redirects++) {
      if (options.keepAlive) {
        kept?.off("connectionError", onConnectionError);
        kept = keptAgent(url.origin, await checkedAddress(url, policy, timeoutMs), timeoutMs);
        kept.on("connectionError", onConnectionError);
        connectedOrigins.add(url.origin);
      }
      const response = await request(url, {
        method: options.method ?? "GET",
        headers,
        body: options.body,
        dispatcher: kept ?? agent ?? undefined,
        signal: deadline,
      });
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(response.statusCode) && typeof location === "string") {
        await response.body.dump();
        if (redirects >= maxRedirects) {
          throw new OutboundFetchError("too_many_redirects", `More than ${maxRedirects} redirects`, {
            url: current,
          });
        }
        const next = checkUrl(location, policy, url);
        current = next.href;
        if (options.followRedirect && !options.followRedirect(next, url)) {
          throw new OutboundFetchError("redirect_refused", `Redirect to ${next.host} refused`, {
            url: current,
          });
        }
        if (next.origin !== url.origin) {
          headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !CREDENTIAL_HEADERS.has(k)));
        }
        url = next;
        continue;
      }
      const declaredLength = Number(response.headers["content-length"]) || 0;
      const read = await readBody(response.body, declaredLength, { maxBytes, truncate, url: current });
      return {
        url: current,
        status: response.statusCode,
        headers: flattenHeaders(response.headers),
        ...read,
      };
    }
  } catch (error) {
    const origin = URL.canParse(current) ? new URL(current).origin : null;
    const connected = origin !== null && connectedOrigins.has(origin) && !failedOrigins.has(origin);
    throw toOutboundError(error, { deadline, url: current, connected });
  } finally {
    kept?.off("connectionError", onConnectionError);
    agent?.destroy().catch(() => {});
  }
}
