import { execFile } from "node:child_process";
import { createSocket } from "node:dgram";
import { Resolver } from "node:dns/promises";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import * as dnsPacket from "dns-packet";
import { siteVerificationMetaTag, siteVerificationTxtRecord } from "../../shared/domain-verification";
import { type SafeFetchOptions, safeFetch } from "../lib/safe-fetch";
import type { PageFetch } from "../modules/domain-control/site-tag-proof";
import { freePort } from "./buddy-process";
import { startFixtureSite } from "./fixture-site";

/**
 * Local stand-ins for what a domain's owner controls (CONTRACT §4 proofs (b) and (c)): a real DNS
 * server answering TXT records over UDP, and real HTTP sites answering by Host. The app under test
 * gets them through `buildApp`'s `domainProof`, so the proofs run their production code paths.
 */

export type DnsServer = {
  port: number;
  /** TXT records by lower-case name; each record as the strings it is sent in (long ones are split). */
  txt: Map<string, string[][]>;
  /** Names the server receives queries for and never answers, as a dead server would. */
  silent: Set<string>;
  /** Every name asked, in order. */
  queries: string[];
  publishTxt(domain: string, token: string): void;
  /** A `dns.promises.Resolver` that asks only this server; a short timeout keeps silent cases fast. */
  resolver(options?: { timeout?: number; tries?: number }): Resolver;
  close(): Promise<void>;
};

/**
 * Names present in `txt` answer their records (none for other types); names absent answer
 * NXDOMAIN, as an authoritative server does for a name that does not exist.
 */
export async function startDnsServer(): Promise<DnsServer> {
  const socket = createSocket("udp4");
  const txt = new Map<string, string[][]>();
  const silent = new Set<string>();
  const queries: string[] = [];
  socket.on("message", (message, remote) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const [question] = query.questions ?? [];
    if (!question) return;
    const name = question.name.toLowerCase();
    queries.push(name);
    if (silent.has(name)) return;
    const records = txt.get(name);
    const NXDOMAIN = 3;
    const response = dnsPacket.encode({
      type: "response",
      id: query.id,
      flags:
        dnsPacket.AUTHORITATIVE_ANSWER |
        dnsPacket.RECURSION_AVAILABLE |
        ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) |
        (records ? 0 : NXDOMAIN),
      questions: [question],
      answers:
        records && question.type === "TXT"
          ? records.map((data) => ({ type: "TXT" as const, name: question.name, ttl: 60, data }))
          : [],
    });
    socket.send(response, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  return {
    port,
    txt,
    silent,
    queries,
    publishTxt(domain, token) {
      const records = txt.get(domain) ?? [];
      txt.set(domain, [...records, [siteVerificationTxtRecord(token)]]);
    },
    resolver({ timeout = 1_000, tries = 1 } = {}) {
      const resolver = new Resolver({ timeout, tries });
      resolver.setServers([`127.0.0.1:${port}`]);
      return resolver;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** A home page carrying `head` inside its <head>, and `body` in its <body>. */
export function homePage({ head = "", body = "<h1>Welcome</h1>" }: { head?: string; body?: string } = {}) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Home</title>${head}</head><body>${body}</body></html>`;
}

/**
 * What a site answers at `/`: a page (default status 200, served as `contentType`, default
 * text/html) or a redirect to `location`. `selfSigned` (https only): the host's https is a real TLS
 * server whose certificate fails verification.
 */
export type SitePage = {
  status?: number;
  html?: string;
  contentType?: string;
  location?: string;
  selfSigned?: boolean;
};

/**
 * A key pair and self-signed certificate made with the system's openssl, once per test process and
 * never written anywhere but a temporary folder deleted at once: no private key lives in the repo.
 */
let selfSigned: Promise<{ key: string; cert: string }> | undefined;
function selfSignedCertificate() {
  selfSigned ??= (async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "buddy-tls-"));
    const [key, cert] = [path.join(folder, "key.pem"), path.join(folder, "cert.pem")];
    try {
      await promisify(execFile)("openssl", [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
        ...["-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=self-signed.test"],
      ]);
      return { key: await readFile(key, "utf8"), cert: await readFile(cert, "utf8") };
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  })();
  return selfSigned;
}

/** A real https server on 127.0.0.1 whose certificate no client trusts: a TLS failure to fetch from. */
export async function startSelfSignedSite(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
) {
  const server = createTlsServer(await selfSignedCertificate(), handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Sites = {
  /** Pages answered at `https://HOST/` and `http://HOST/`; a host absent from one cannot be connected to. */
  https: Map<string, SitePage>;
  http: Map<string, SitePage>;
  /** Where `scheme://host/` is really served: for redirects between the fixture sites. */
  urlOf(scheme: "https" | "http", host: string): string;
  publishTag(domain: string, token: string): void;
  /** The proof's `fetchPage`: the real SSRF-safe client, pointed at the local sites. */
  fetchPage: PageFetch;
  /** Every URL asked, as the proof asked it (before the mapping to local ports). */
  asked: string[];
  /** Every request a site received, as `scheme://host/path` (redirects followed included). */
  served: string[];
  close(): Promise<void>;
};

/**
 * Two local HTTP servers stand in for port 443 and port 80 of any host name: `fetchPage` maps
 * `https://acme.test/` to `http://acme.test:<443's stand-in>/` and resolves every name to
 * 127.0.0.1 (hence allowPrivate), then calls the real `safeFetch`, which follows redirects itself.
 * A `selfSigned` host's https is a third, real TLS server. A host a map does not list refuses the
 * connection, as a site that is down does; reached through a redirect, it cuts the connection
 * once it has read the request.
 */
export async function startSites(): Promise<Sites> {
  const https = new Map<string, SitePage>();
  const http = new Map<string, SitePage>();
  const served: string[] = [];
  const serve = (scheme: "https" | "http") => (request: IncomingMessage, response: ServerResponse) => {
    const host = (request.headers.host ?? "").replace(/:\d+$/, "");
    served.push(`${scheme}://${host}${request.url ?? "/"}`);
    const page = (scheme === "https" ? https : http).get(host);
    if (!page) {
      request.socket.destroy();
      return;
    }
    if (page.location) {
      response.writeHead(page.status ?? 301, { location: page.location }).end();
      return;
    }
    response
      .writeHead(page.status ?? 200, { "content-type": page.contentType ?? "text/html; charset=utf-8" })
      .end(page.html ?? "");
  };
  const secure = await startFixtureSite(serve("https"));
  const plain = await startFixtureSite(serve("http"));
  const tls = await startSelfSignedSite(serve("https"));
  // Nothing listens there: connections are refused.
  const closedPort = await freePort();
  const urlOf = (scheme: "https" | "http", host: string) => {
    if (scheme === "https" && https.get(host)?.selfSigned) return `https://${host}:${tls.port}/`;
    return `http://${host}:${scheme === "https" ? secure.port : plain.port}/`;
  };
  const asked: string[] = [];
  const fetchPage: PageFetch = (url: string, options: SafeFetchOptions) => {
    asked.push(url);
    const target = new URL(url);
    const scheme = target.protocol === "https:" ? "https" : "http";
    const listed = (scheme === "https" ? https : http).has(target.hostname);
    const local = listed ? urlOf(scheme, target.hostname) : `http://${target.hostname}:${closedPort}/`;
    return safeFetch(`${local.slice(0, -1)}${target.pathname}${target.search}`, {
      ...options,
      allowPrivate: true,
      lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    });
  };
  return {
    https,
    http,
    urlOf,
    publishTag(domain, token) {
      https.set(domain, { html: homePage({ head: siteVerificationMetaTag(token) }) });
    },
    fetchPage,
    asked,
    served,
    close: async () => {
      await secure.close();
      await plain.close();
      await tls.close();
    },
  };
}

/** A test app whose proofs of domain control reach a local DNS server and local sites. */
export async function createDomainProofTestApp() {
  // Imported here: unit tests of outbound fetches use the sites above without loading the app.
  const { createTestApp } = await import("./app");
  const dns = await startDnsServer();
  const sites = await startSites();
  const t = await createTestApp({ domainProof: { fetchPage: sites.fetchPage, resolver: dns.resolver() } });
  return {
    t,
    dns,
    sites,
    async close() {
      await t.close();
      await dns.close();
      await sites.close();
    },
  };
}
