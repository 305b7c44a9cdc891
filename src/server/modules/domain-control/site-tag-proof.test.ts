import { DOMAIN_MESSAGES, siteVerificationMetaTag } from "@shared/domain-verification";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OutboundFetchError } from "../../lib/safe-fetch";
import { homePage, type SitePage, type Sites, startSites } from "../../testing/domain-proof";
import { checkSiteTag, type PageFetch } from "./site-tag-proof";

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
  sites.served.length = 0;
});

// allowPrivate false, as in production: only the test's fetchPage reaches loopback.
const check = (domain = "acme.test", token = TOKEN) =>
  checkSiteTag(domain, token, sites.fetchPage, { allowPrivate: false, timeoutMs: 2_000 });
const proves = async (domain = "acme.test", token = TOKEN) => (await check(domain, token)).proven;
const tagged = (page: Partial<SitePage> = {}): SitePage => ({
  html: homePage({ head: siteVerificationMetaTag(TOKEN) }),
  ...page,
});

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
    expect(await check()).toEqual({
      proven: false,
      problem: DOMAIN_MESSAGES.tagOutsideHead("https://acme.test/"),
    });
  });

  it("does not count a tag written after </head>, though the parser moves it into the head", async () => {
    const written = `<!doctype html><html><head><title>Home</title></head>${siteVerificationMetaTag(TOKEN)}<body><h1>Hi</h1></body></html>`;
    sites.https.set("acme.test", { html: written });
    expect(await check()).toEqual({
      proven: false,
      problem: DOMAIN_MESSAGES.tagOutsideHead("https://acme.test/"),
    });
    // Nor with the <head> start tag left out, where the parser has no location for the head.
    sites.https.set("acme.test", {
      html: `<title>Home</title></head>\n${siteVerificationMetaTag(TOKEN)}<p>Hi`,
    });
    expect(await proves()).toBe(false);
  });

  it("counts a tag in a head the page leaves implicit or unclosed", async () => {
    for (const html of [
      `<!doctype html>${siteVerificationMetaTag(TOKEN)}<title>Home</title><p>Hi`,
      `<html><head><title>Home</title>${siteVerificationMetaTag(TOKEN)}<body><p>Hi`,
    ]) {
      sites.https.set("acme.test", { html });
      expect(await proves(), html).toBe(true);
    }
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
      sites.https.set("acme.test", tagged({ status }));
      expect(await check(), String(status)).toEqual({
        proven: false,
        problem: DOMAIN_MESSAGES.siteStatus("https://acme.test/", status),
      });
    }
    // An answer is not a failure to connect: http is not asked instead.
    sites.http.set("acme.test", { html: homePage({ head: siteVerificationMetaTag(TOKEN) }) });
    expect(await proves()).toBe(false);
    expect(sites.asked.every((url) => url.startsWith("https://"))).toBe(true);
  });

  it("follows the owner's redirect to www", async () => {
    sites.https.set("acme.test", { status: 301, location: sites.urlOf("https", "www.acme.test") });
    sites.https.set("www.acme.test", tagged());
    expect(await check()).toEqual({ proven: true, problem: null });
  });

  it("does not follow a redirect from https down to http, even on the domain", async () => {
    // The local sites speak plain HTTP for both schemes: the hop is judged as a real https site's would be.
    const judged: boolean[] = [];
    const downgrade: PageFetch = async (url, options) => {
      const target = new URL("http://www.acme.test/");
      const allowed = options.followRedirect?.(target, new URL(url)) ?? true;
      judged.push(allowed);
      if (!allowed) throw new OutboundFetchError("redirect_refused", "refused", { url: target.href });
      throw new OutboundFetchError("network", "unreachable");
    };
    const outcome = await checkSiteTag("acme.test", TOKEN, downgrade, { allowPrivate: false });
    expect(judged).toEqual([false]);
    expect(outcome).toEqual({
      proven: false,
      problem: DOMAIN_MESSAGES.redirectsToHttp("https://acme.test/", "http://www.acme.test/"),
    });
  });

  it("does not follow a redirect to another host, and names it", async () => {
    sites.https.set("acme.test", { status: 302, location: sites.urlOf("https", "other.test") });
    sites.https.set("other.test", tagged());
    expect(await check()).toEqual({
      proven: false,
      problem: DOMAIN_MESSAGES.redirectsAway("https://acme.test/", "other.test", "acme.test"),
    });
    expect(sites.https.get("other.test")).toBeDefined();
    // A lookalike is another host too.
    sites.https.set("acme.test", { status: 302, location: sites.urlOf("https", "acme.test.evil.test") });
    sites.https.set("acme.test.evil.test", tagged());
    expect((await check()).problem).toBe(
      DOMAIN_MESSAGES.redirectsAway("https://acme.test/", "acme.test.evil.test", "acme.test"),
    );
  });

  it("stops a chain of redirects where it leaves the domain, however it got there", async () => {
    sites.https.set("acme.test", { status: 301, location: sites.urlOf("https", "www.acme.test") });
    sites.https.set("www.acme.test", { status: 302, location: sites.urlOf("https", "cdn.other.test") });
    sites.https.set("cdn.other.test", { status: 302, location: sites.urlOf("https", "acme.test") });
    expect(await check()).toEqual({
      proven: false,
      problem: DOMAIN_MESSAGES.redirectsAway("https://acme.test/", "cdn.other.test", "acme.test"),
    });
  });

  it("does not ask the other host at all", async () => {
    const other = sites.urlOf("http", "other.test");
    sites.https.set("acme.test", { status: 302, location: other });
    sites.http.set("other.test", tagged());
    await check();
    expect(sites.served).not.toContain("http://other.test/");
  });

  it("gives up after three redirects", async () => {
    sites.https.set("acme.test", { status: 302, location: sites.urlOf("https", "a.acme.test") });
    sites.https.set("a.acme.test", { status: 302, location: sites.urlOf("https", "b.acme.test") });
    sites.https.set("b.acme.test", { status: 302, location: sites.urlOf("https", "c.acme.test") });
    sites.https.set("c.acme.test", { status: 302, location: sites.urlOf("https", "d.acme.test") });
    sites.https.set("d.acme.test", tagged());
    expect(await check()).toEqual({
      proven: false,
      problem: DOMAIN_MESSAGES.tooManyRedirects("https://acme.test/"),
    });
  });

  it("falls back to http only when https cannot be connected to", async () => {
    sites.http.set("acme.test", tagged());
    expect(await proves()).toBe(true);
    expect(sites.asked).toEqual(["https://acme.test/", "http://acme.test/"]);
  });

  it("never tries http past a certificate error, and says what is wrong", async () => {
    sites.https.set("acme.test", tagged({ selfSigned: true }));
    sites.http.set("acme.test", tagged());
    expect(await check()).toEqual({
      proven: false,
      problem: DOMAIN_MESSAGES.certificateError("acme.test", "self-signed certificate"),
    });
    expect(sites.asked).toEqual(["https://acme.test/"]);
    expect(sites.served).toEqual([]);
  });

  it("names the host whose certificate fails after a redirect within the domain", async () => {
    sites.https.set("www.acme.test", tagged({ selfSigned: true }));
    sites.https.set("acme.test", { status: 301, location: sites.urlOf("https", "www.acme.test") });
    expect((await check()).problem).toBe(
      DOMAIN_MESSAGES.certificateError("www.acme.test", "self-signed certificate"),
    );
  });

  it("is no proof when the site cannot be reached at all, which needs no more words than 'not found'", async () => {
    // A domain may have no site at all and be proven by its TXT record.
    expect(await check("missing.test")).toEqual({ proven: false, problem: null });
    expect(sites.asked).toEqual(["https://missing.test/", "http://missing.test/"]);
  });

  it("counts only a page served as text/html", async () => {
    for (const contentType of ["text/plain", "application/json", "text/html-sandboxed", ""]) {
      sites.https.set("acme.test", tagged({ contentType }));
      expect(await check(), contentType).toEqual({
        proven: false,
        problem: DOMAIN_MESSAGES.siteNotHtml("https://acme.test/"),
      });
    }
    sites.https.set("acme.test", tagged({ contentType: "TEXT/HTML ; charset=UTF-8" }));
    expect(await proves()).toBe(true);
  });

  it("is no proof when the page is not HTML at all", async () => {
    sites.https.set("acme.test", { html: `{"buddy-site-verification":"${TOKEN}"}` });
    expect(await check()).toEqual({ proven: false, problem: null });
  });
});
