import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureSite, startFixtureSite } from "../testing/fixture-site";
import { OutboundFetchError, type SafeFetchOptions, safeFetch } from "./safe-fetch";
import { createSiteMetadataService, METADATA_TEXT_MAX } from "./site-metadata";

const html = (head: string) => `<!doctype html><html><head>${head}</head><body><h1>Hi</h1></body></html>`;

/** One fixture server, many "sites": each *.test name is routed by its Host header. */
const pages: Record<string, { status?: number; type?: string; body: string | Buffer; delayMs?: number }> = {
  "og.test": {
    body: html(`<title>Home | Acme</title>
      <meta property="og:site_name" content="Acme &amp; Co">
      <meta property="og:description" content="From Open Graph">
      <meta name="description" content="Widgets &lt;fast&gt; &#x2014; cheap">
      <meta property="og:image" content="/img/og.png">`),
  },
  "title.test": {
    body: html(`<title>
        Beta   Tools &mdash; Home </title>
      <meta property="og:site_name" content="  ">
      <meta property="og:description" content="Only Open Graph here">`),
  },
  "bare.test": { body: "<html><body><p>No head to speak of</p></body></html>" },
  "json.test": { type: "application/json", body: `{"html":"<title>Not a page</title>"}` },
  "long.test": {
    body: html(`<title>Long</title><meta name="description" content="${"word ".repeat(200)}">`),
  },
  "latin1.test": {
    type: "text/html; charset=iso-8859-1",
    body: Buffer.from(html("<title>Caf\u00e9 M\u00fcller</title>"), "latin1"),
  },
  "slow.test": { delayMs: 100, body: html("<title>Slow but steady</title>") },
  "gone.test": { status: 404, body: html("<title>Not Found</title>") },
  "cached.test": { body: html("<title>Cached</title>") },
  "127.0.0.1": { body: html("<title>Plain http fixture</title>") },
};

let site: FixtureSite;
const hits = (host: string) => site.requests.filter((request) => request.host.startsWith(`${host}:`)).length;

/** safeFetch with a name table mapping every *.test host to the fixture. */
const fixtureFetch = (url: string, options: SafeFetchOptions) =>
  safeFetch(url, { ...options, lookup: async () => [{ address: "127.0.0.1", family: 4 }] });

const service = () =>
  createSiteMetadataService({ allowPrivate: true, schemes: ["http"], fetch: fixtureFetch });
const at = (host: string) => `${host}:${site.port}`;

beforeAll(async () => {
  site = await startFixtureSite((request, response) => {
    const page = pages[(request.headers.host ?? "").replace(/:\d+$/, "")];
    if (!page) return void response.writeHead(404).end();
    setTimeout(() => {
      response.writeHead(page.status ?? 200, { "content-type": page.type ?? "text/html; charset=utf-8" });
      response.end(page.body);
    }, page.delayMs ?? 0);
  });
});

afterAll(() => site.close());

describe("site metadata", () => {
  it("prefers og:site_name to <title> and the description meta to og:description, entities decoded", async () => {
    expect(await service().getMetadata(at("og.test"))).toEqual({
      siteName: "Acme & Co",
      description: "Widgets <fast> \u2014 cheap",
      // SPEC §5: a relative image path is prefixed with the site's origin.
      image: expect.stringMatching(/^http:\/\/og\.test(:\d+)?\/img\/og\.png$/),
    });
  });

  it("falls back to a whitespace-collapsed <title> and og:description", async () => {
    expect(await service().getMetadata(at("title.test"))).toEqual({
      siteName: "Beta Tools \u2014 Home",
      description: "Only Open Graph here",
      image: "",
    });
  });

  it("resolves empty strings for a page without metadata and for a non-HTML answer", async () => {
    const metadata = service();
    expect(await metadata.getMetadata(at("bare.test"))).toEqual({ siteName: "", description: "", image: "" });
    expect(await metadata.getMetadata(at("json.test"))).toEqual({ siteName: "", description: "", image: "" });
  });

  it("caps long texts", async () => {
    const { description } = await service().getMetadata(at("long.test"));
    expect(description.length).toBeLessThanOrEqual(METADATA_TEXT_MAX);
    expect(description.startsWith("word word")).toBe(true);
  });

  it("decodes a page in the charset its Content-Type declares", async () => {
    expect((await service().getMetadata(at("latin1.test"))).siteName).toBe("Caf\u00e9 M\u00fcller");
  });

  it("serves repeat requests from the cache, whatever the spelling of the domain", async () => {
    const metadata = service();
    const before = hits("cached.test");
    await metadata.getMetadata(at("cached.test"));
    await metadata.getMetadata(`https://www.CACHED.test:${site.port}/about`);
    expect(hits("cached.test") - before).toBe(1);
  });

  it("shares one fetch between concurrent requests for the same domain", async () => {
    const metadata = service();
    const before = hits("slow.test");
    const results = await Promise.all(Array.from({ length: 5 }, () => metadata.getMetadata(at("slow.test"))));
    expect(results.every((result) => result.siteName === "Slow but steady")).toBe(true);
    expect(hits("slow.test") - before).toBe(1);
  });

  it("rejects a non-2xx answer and remembers the failure for a short while only", async () => {
    const metadata = createSiteMetadataService({
      allowPrivate: true,
      schemes: ["http"],
      fetch: fixtureFetch,
      failureTtlMs: 100,
    });
    const before = hits("gone.test");
    const failed = metadata.getMetadata(at("gone.test"));
    await expect(failed).rejects.toBeInstanceOf(OutboundFetchError);
    await expect(failed).rejects.toMatchObject({ reason: "http_status" });
    await expect(metadata.getMetadata(at("gone.test"))).rejects.toMatchObject({ reason: "http_status" });
    expect(hits("gone.test") - before).toBe(1);
    await sleep(150);
    await expect(metadata.getMetadata(at("gone.test"))).rejects.toMatchObject({ reason: "http_status" });
    expect(hits("gone.test") - before).toBe(2);
  });

  it("rejects an invalid domain without fetching", async () => {
    for (const input of ["", "localhost", "not a domain", "exa mple.com"]) {
      await expect(service().getMetadata(input), input).rejects.toMatchObject({ reason: "invalid_url" });
    }
  });

  it("falls back from https to http when https cannot connect (real resolver, default schemes)", async () => {
    const metadata = createSiteMetadataService({ allowPrivate: true });
    const before = hits("127.0.0.1");
    const { siteName } = await metadata.getMetadata(`127.0.0.1:${site.port}`);
    expect(siteName).toBe("Plain http fixture");
    // The TLS handshake never became an HTTP request: only the http attempt reached the site.
    expect(hits("127.0.0.1") - before).toBe(1);
  });

  it("refuses private addresses and drops the port when allowPrivate is off", async () => {
    const metadata = createSiteMetadataService({ allowPrivate: false });
    await expect(metadata.getMetadata("127.0.0.1")).rejects.toMatchObject({ reason: "blocked_address" });
    await expect(metadata.getMetadata(`10.0.0.1:${site.port}`)).rejects.toMatchObject({
      reason: "blocked_address",
    });
  });
});
