import { siteVerificationMetaTag } from "@shared/domain-verification";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { homePage, type Sites, startSites } from "../../testing/domain-proof";
import { siteTagProvesDomain } from "./site-tag-proof";

const TOKEN = "tok_right_0123456789";
let sites: Sites;

beforeAll(async () => {
  sites = await startSites();
});
afterAll(() => sites.close());
beforeEach(() => {
  sites.https.clear();
  sites.http.clear();
  sites.asked.length = 0;
});

// allowPrivate false, as in production: only the test's fetchPage reaches loopback.
const proves = (domain = "acme.test", token = TOKEN) =>
  siteTagProvesDomain(domain, token, sites.fetchPage, { allowPrivate: false, timeoutMs: 2_000 });

describe("proof (b): the meta tag on the home page", () => {
  it("proves the domain with the claimant's token in the page's head", async () => {
    sites.https.set("acme.test", { html: homePage({ head: siteVerificationMetaTag(TOKEN) }) });
    expect(await proves()).toBe(true);
    expect(sites.asked).toEqual(["https://acme.test/"]);
  });

  it("accepts the tag however the page spells it (attribute order, quotes, case, spaces)", async () => {
    sites.https.set("acme.test", {
      html: homePage({ head: `<META content=' ${TOKEN} ' NAME=buddy-site-verification>` }),
    });
    expect(await proves()).toBe(true);
  });

  it("does not prove it with another token, nor with the token under another name", async () => {
    sites.https.set("acme.test", {
      html: homePage({
        head: `${siteVerificationMetaTag("tok_someone_else")}<meta name="google-site-verification" content="${TOKEN}">`,
      }),
    });
    expect(await proves()).toBe(false);
    expect(await proves("acme.test", "tok_someone")).toBe(false);
  });

  it("finds the claimant's tag among several (a rival's, an old one)", async () => {
    sites.https.set("acme.test", {
      html: homePage({
        head: [siteVerificationMetaTag("tok_rival"), siteVerificationMetaTag(TOKEN)].join(""),
      }),
    });
    expect(await proves()).toBe(true);
    expect(await proves("acme.test", "tok_rival")).toBe(true);
    expect(await proves("acme.test", "tok_third")).toBe(false);
  });

  it("does not count a tag in the page's body, where visitors' content may show", async () => {
    sites.https.set("acme.test", {
      html: homePage({ body: `<p>Latest comment:</p>${siteVerificationMetaTag(TOKEN)}` }),
    });
    expect(await proves()).toBe(false);
  });

  it("does not count the token in text, comments or other attributes", async () => {
    sites.https.set("acme.test", {
      html: homePage({
        head: `<!-- ${siteVerificationMetaTag(TOKEN)} --><meta name="description" content="${TOKEN}">`,
        body: `<p>${siteVerificationMetaTag(TOKEN).replaceAll("<", "&lt;")}</p>`,
      }),
    });
    expect(await proves()).toBe(false);
  });

  it("does not count a home page that answers with an error, tag or not", async () => {
    for (const status of [404, 410, 500, 503]) {
      sites.https.set("acme.test", { status, html: homePage({ head: siteVerificationMetaTag(TOKEN) }) });
      expect(await proves(), String(status)).toBe(false);
    }
    // An answer is not a failure to connect: http is not asked instead.
    sites.http.set("acme.test", { html: homePage({ head: siteVerificationMetaTag(TOKEN) }) });
    expect(await proves()).toBe(false);
    expect(sites.asked.every((url) => url.startsWith("https://"))).toBe(true);
  });

  it("follows the owner's redirect to www", async () => {
    sites.https.set("acme.test", { status: 301, location: sites.urlOf("https", "www.acme.test") });
    sites.https.set("www.acme.test", { html: homePage({ head: siteVerificationMetaTag(TOKEN) }) });
    expect(await proves()).toBe(true);
  });

  it("gives up after three redirects", async () => {
    sites.https.set("acme.test", { status: 302, location: sites.urlOf("https", "a.acme.test") });
    sites.https.set("a.acme.test", { status: 302, location: sites.urlOf("https", "b.acme.test") });
    sites.https.set("b.acme.test", { status: 302, location: sites.urlOf("https", "c.acme.test") });
    sites.https.set("c.acme.test", { status: 302, location: sites.urlOf("https", "d.acme.test") });
    sites.https.set("d.acme.test", { html: homePage({ head: siteVerificationMetaTag(TOKEN) }) });
    expect(await proves()).toBe(false);
  });

  it("falls back to http only when https cannot be connected to", async () => {
    sites.http.set("acme.test", { html: homePage({ head: siteVerificationMetaTag(TOKEN) }) });
    expect(await proves()).toBe(true);
    expect(sites.asked).toEqual(["https://acme.test/", "http://acme.test/"]);
  });

  it("is no proof when the site cannot be reached at all", async () => {
    expect(await proves("missing.test")).toBe(false);
    expect(sites.asked).toEqual(["https://missing.test/", "http://missing.test/"]);
  });

  it("is no proof when the page is not HTML at all", async () => {
    sites.https.set("acme.test", { html: `{"buddy-site-verification":"${TOKEN}"}` });
    expect(await proves()).toBe(false);
  });
});
