import { createServer as createHttpServer } from "node:http";
import { createServer as createTcpServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSelfSignedSite } from "../testing/domain-proof";
import { type FixtureSite, startFixtureSite } from "../testing/fixture-site";
import {
  type HostLookup,
  isPublicAddress,
  OutboundFetchError,
  type OutboundFetchReason,
  type SafeFetchOptions,
  safeFetch,
} from "./safe-fetch";

async function failure(url: string, options?: SafeFetchOptions): Promise<OutboundFetchError> {
  const error = await safeFetch(url, options).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof OutboundFetchError)) throw new Error(`expected OutboundFetchError for ${url}`);
  return error;
}

async function expectReason(url: string, reason: OutboundFetchReason, options?: SafeFetchOptions) {
  expect((await failure(url, options)).reason, url).toBe(reason);
}

/** Test-only name table: a name we control instead of real DNS. */
function fakeDns(table: Record<string, string[]>): HostLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const found = table[hostname];
    if (!found) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) }));
  };
  return Object.assign(lookup, { calls });
}

let site: FixtureSite;

beforeAll(async () => {
  site = await startFixtureSite((request, response) => {
    const path = request.url ?? "/";
    const hop = /^\/hop\/(\d+)$/.exec(path);
    if (hop) {
      const left = Number(hop[1]);
      if (left === 0) response.end("arrived");
      else response.writeHead(302, { location: `/hop/${left - 1}` }).end();
    } else if (path.startsWith("/to?")) {
      const target = new URLSearchParams(path.slice(4)).get("url") ?? "/";
      response.writeHead(301, { location: target }).end();
    } else if (path === "/big") {
      response.writeHead(200, { "content-length": "2000" }).end("x".repeat(2000));
    } else if (path === "/big-chunked") {
      response.write("y".repeat(800));
      response.end("y".repeat(800));
    } else if (path === "/never") {
      // no answer at all
    } else if (path === "/stall-body") {
      response.writeHead(200, { "content-type": "text/html" });
      response.write("<html>");
    } else if (path === "/cut") {
      request.socket.destroy();
    } else if (path === "/missing") {
      response.writeHead(404).end("nope");
    } else {
      response.writeHead(200, { "content-type": "text/plain" }).end("hello");
    }
  });
});

afterAll(() => site.close());

describe("safeFetch address rules", () => {
  it.each([
    "http://127.0.0.1/",
    "http://127.8.9.10/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://[::1]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://0.0.0.0/",
    "http://[::]/",
    "http://224.0.0.1/",
    "http://255.255.255.255/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[::127.0.0.1]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://[2002:7f00:1::]/",
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://[fd12:3456::1]/",
    "https://localhost/",
    "http://localhost./",
    "http://admin.localhost/",
  ])("refuses %s before connecting", async (url) => {
    const dns = fakeDns({});
    await expectReason(url, "blocked_address", { lookup: dns });
    expect(dns.calls).toEqual([]);
  });

  it("refuses loopback even on a port it may use, and the server never sees a request", async () => {
    const before = site.requests.length;
    await expectReason(`${site.origin}/`, "blocked_address", { allowedPorts: [site.port] });
    expect(site.requests.length).toBe(before);
  });

  it("refuses a host name when any resolved address is private", async () => {
    const dns = fakeDns({ "evil.test": ["10.1.2.3"], "mixed.test": ["93.184.216.34", "127.0.0.1"] });
    await expectReason("http://evil.test/", "blocked_address", { lookup: dns });
    await expectReason("https://mixed.test/", "blocked_address", { lookup: dns });
    expect(dns.calls).toEqual(["evil.test", "mixed.test"]);
  });

  it("refuses ports other than 80 and 443 without resolving the name", async () => {
    const dns = fakeDns({ "example.test": ["93.184.216.34"] });
    await expectReason("http://example.test:8080/", "blocked_address", { lookup: dns });
    expect(dns.calls).toEqual([]);
  });

  it("connects to the address it checked (names resolve through the guarded lookup only)", async () => {
    const dns = fakeDns({ "site.test": ["127.0.0.1"] });
    const result = await safeFetch(`http://site.test:${site.port}/hello`, {
      allowPrivate: true,
      lookup: dns,
    });
    expect(result.body.toString()).toBe("hello");
    expect(dns.calls).toEqual(["site.test"]);
    expect(site.requests.at(-1)?.host).toBe(`site.test:${site.port}`);
  });

  it("classifies addresses: public unicast only", () => {
    for (const address of ["8.8.8.8", "93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    for (const address of ["127.0.0.1", "169.254.169.254", "::1", "::ffff:10.0.0.1", "fe80::1", "nonsense"]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});

describe("safeFetch redirects", () => {
  // The fixture plays a public site: this policy admits 127.0.0.1 (and nothing else private) so the
  // per-hop checks below run with allowPrivate off, as in production.
  const dns = fakeDns({ "site.test": ["127.0.0.1"], "internal.test": ["10.0.0.7"] });
  const asPublic = (): SafeFetchOptions => ({
    lookup: dns,
    isAllowedAddress: (address) => address === "127.0.0.1" || isPublicAddress(address),
    allowedPorts: [site.port],
  });
  const via = (target: string) => `http://site.test:${site.port}/to?url=${encodeURIComponent(target)}`;

  it.each([
    ["the cloud metadata address", "http://169.254.169.254/latest/meta-data/", "blocked_address"],
    ["a name resolving to a private address", "http://internal.test:PORT/", "blocked_address"],
    ["localhost", "http://localhost:PORT/", "blocked_address"],
    ["a file: URL", "file:///etc/passwd", "invalid_url"],
  ] as const)("refuses a redirect to %s after one request", async (_name, target, reason) => {
    const before = site.requests.length;
    const error = await failure(via(target.replace("PORT", String(site.port))), asPublic());
    expect(error.reason).toBe(reason);
    expect(site.requests.length - before).toBe(1);
  });

  it("follows up to 3 relative redirects and reports the final URL", async () => {
    const result = await safeFetch(`http://site.test:${site.port}/hop/3`, asPublic());
    expect(result.status).toBe(200);
    expect(result.body.toString()).toBe("arrived");
    expect(result.url).toBe(`http://site.test:${site.port}/hop/0`);
  });

  it("refuses a fourth redirect", async () => {
    await expectReason(`http://site.test:${site.port}/hop/4`, "too_many_redirects", asPublic());
  });

  it("asks the caller's followRedirect about each target before requesting it", async () => {
    const judged: string[] = [];
    const followRedirect = (target: URL) => {
      judged.push(target.href);
      return target.pathname !== "/hop/0";
    };
    const before = site.requests.length;
    const error = await failure(`http://site.test:${site.port}/hop/2`, { ...asPublic(), followRedirect });
    expect(error.reason).toBe("redirect_refused");
    expect(error.url).toBe(`http://site.test:${site.port}/hop/0`);
    expect(judged).toEqual([`http://site.test:${site.port}/hop/1`, `http://site.test:${site.port}/hop/0`]);
    expect(site.requests.slice(before).map((r) => r.path)).toEqual(["/hop/2", "/hop/1"]);

    const followed = await safeFetch(`http://site.test:${site.port}/hop/2`, {
      ...asPublic(),
      followRedirect: () => true,
    });
    expect(followed.body.toString()).toBe("arrived");
  });

  it("drops credentials headers when a redirect leaves the origin", async () => {
    const target = `http://127.0.0.1:${site.port}/hello`;
    await safeFetch(via(target), { ...asPublic(), headers: { Cookie: "a=1", "X-Trace": "t" } });
    const [first, second] = site.requests.slice(-2);
    expect(first?.headers.cookie).toBe("a=1");
    expect(second?.headers.cookie).toBeUndefined();
    expect(second?.headers["x-trace"]).toBe("t");
  });
});

describe("safeFetch URL rules", () => {
  it.each([
    "file:///etc/passwd",
    "ftp://example.com/",
    "javascript:alert(1)",
    "data:text/html,<h1>hi</h1>",
    "gopher://example.com/",
    "not a url",
  ])("refuses %s", async (url) => {
    await expectReason(url, "invalid_url", { allowPrivate: true });
  });

  it("refuses credentials in the URL, even with allowPrivate", async () => {
    await expectReason(`http://user:secret@127.0.0.1:${site.port}/`, "invalid_url", { allowPrivate: true });
    await expectReason("https://user@example.com/", "invalid_url");
  });
});

describe("safeFetch with allowPrivate (local fixture sites)", () => {
  const local = { allowPrivate: true };

  it("returns status, lower-case headers and body, and sends a polite User-Agent", async () => {
    const result = await safeFetch(`${site.origin}/hello`, local);
    expect(result).toMatchObject({ url: `${site.origin}/hello`, status: 200, truncated: false });
    expect(result.headers["content-type"]).toBe("text/plain");
    expect(result.body.toString()).toBe("hello");
    expect(site.requests.at(-1)?.headers["user-agent"]).toMatch(/^BuddyBot\/1\.0/);
    expect(site.requests.at(-1)?.headers.accept).toContain("text/html");
  });

  it("returns an error status instead of throwing: the caller decides", async () => {
    expect((await safeFetch(`${site.origin}/missing`, local)).status).toBe(404);
  });

  it("times out when the site does not answer, or stalls mid-body", async () => {
    const started = Date.now();
    await expectReason(`${site.origin}/never`, "timeout", { ...local, timeoutMs: 200 });
    await expectReason(`${site.origin}/stall-body`, "timeout", { ...local, timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("fails past the size cap, declared or not, or truncates when asked", async () => {
    await expectReason(`${site.origin}/big`, "too_large", { ...local, maxBytes: 1000 });
    await expectReason(`${site.origin}/big-chunked`, "too_large", { ...local, maxBytes: 1000 });
    const cut = await safeFetch(`${site.origin}/big-chunked`, { ...local, maxBytes: 1000, truncate: true });
    expect(cut.truncated).toBe(true);
    expect(cut.body.length).toBe(1000);
  });

  it("reports an unreachable site as a network failure", async () => {
    const gone = await startFixtureSite(() => {});
    await gone.close();
    await expectReason(`${gone.origin}/`, "network", local);
  });

  it("reports a certificate that does not verify as a TLS failure, saying what is wrong", async () => {
    const tls = await startSelfSignedSite((_request, response) => response.end("secret"));
    try {
      const error = await failure(`${tls.origin}/`, local);
      expect(error.reason).toBe("tls");
      expect(error.message).toBe("self-signed certificate");
    } finally {
      await tls.close();
    }
  });

  it("reports https to a server that speaks no TLS, or never finishes the handshake, as a network failure", async () => {
    // Plain http where TLS was expected: there is no https to verify.
    await expectReason(`https://127.0.0.1:${site.port}/hello`, "network", local);
    const sockets = new Set<Socket>();
    const silent = createTcpServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    try {
      await expectReason(`https://127.0.0.1:${port}/`, "network", { ...local, timeoutMs: 200 });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("reports a site that connects and then cuts the connection as lost, not unreachable", async () => {
    await expectReason(`${site.origin}/cut`, "connection_lost", local);
  });
});

describe("safeFetch with keepAlive (webhook deliveries)", () => {
  it("keeps the connection for the next call, and still resolves and checks the name at every call", async () => {
    const paths: string[] = [];
    let connections = 0;
    const server = createHttpServer((request, response) => {
      paths.push(request.url ?? "");
      request.resume();
      request.on("end", () => response.end("ok"));
    });
    server.on("connection", () => connections++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const table: Record<string, string[]> = { "hooks.test": ["127.0.0.1"] };
    const dns = fakeDns(table);
    // The receiver plays a public site, with allowPrivate off as in production.
    const options: SafeFetchOptions = {
      method: "POST",
      body: "{}",
      keepAlive: true,
      lookup: dns,
      isAllowedAddress: (address) => address === "127.0.0.1" || isPublicAddress(address),
      allowedPorts: [port],
    };
    try {
      for (const path of ["/1", "/2", "/3"]) {
        expect((await safeFetch(`http://hooks.test:${port}${path}`, options)).status).toBe(200);
        // undici frees the connection once the answer is read, a moment after the call returns.
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(connections).toBe(1);
      expect(dns.calls).toEqual(["hooks.test", "hooks.test", "hooks.test"]);
      // The name now points at a private address: refused, though a connection to the old one is open.
      table["hooks.test"] = ["10.0.0.7"];
      await expectReason(`http://hooks.test:${port}/4`, "blocked_address", options);
      expect(paths).toEqual(["/1", "/2", "/3"]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("tells an unreachable site from one that connects and cuts the connection", async () => {
    const options: SafeFetchOptions = { allowPrivate: true, keepAlive: true };
    await expectReason(`${site.origin}/cut`, "connection_lost", options);
    const gone = await startFixtureSite(() => {});
    await gone.close();
    await expectReason(`${gone.origin}/`, "network", options);
  });
});
