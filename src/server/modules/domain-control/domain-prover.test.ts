import { DOMAIN_MESSAGES } from "@shared/domain-verification";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type DnsServer, type Sites, startDnsServer, startSites } from "../../testing/domain-proof";
import { createDomainProver, type DomainProver } from "./domain-prover";

const TOKEN = "tok_claimant_0123456";
let dns: DnsServer;
let sites: Sites;
let prover: DomainProver;

beforeAll(async () => {
  dns = await startDnsServer();
  sites = await startSites();
  prover = createDomainProver({
    allowPrivate: false,
    fetchPage: sites.fetchPage,
    resolver: dns.resolver(),
    timeoutMs: 2_000,
  });
});
afterAll(async () => {
  await dns.close();
  await sites.close();
});
beforeEach(() => {
  dns.txt.clear();
  sites.https.clear();
  sites.http.clear();
  sites.asked.length = 0;
  dns.queries.length = 0;
});

describe("the domain prover", () => {
  it("takes a verified address at the domain first, without asking the site or the DNS", async () => {
    expect(
      (await prover.prove({ domain: "acme.test", token: TOKEN, verifiedEmail: "ceo@acme.test" })).method,
    ).toBe("email");
    expect(sites.asked).toEqual([]);
    expect(dns.queries).toEqual([]);
  });

  it("names the TXT record or the meta tag, whichever is published", async () => {
    dns.publishTxt("txt.test", TOKEN);
    sites.publishTag("tag.test", TOKEN);
    const free = "someone@gmail.com";
    expect((await prover.prove({ domain: "txt.test", token: TOKEN, verifiedEmail: free })).method).toBe(
      "dns_txt",
    );
    expect((await prover.prove({ domain: "tag.test", token: TOKEN, verifiedEmail: free })).method).toBe(
      "meta_tag",
    );
    expect(
      (await prover.prove({ domain: "tag.test", token: "tok_rival", verifiedEmail: null })).method,
    ).toBeNull();
    expect(
      (await prover.prove({ domain: "none.test", token: TOKEN, verifiedEmail: null })).method,
    ).toBeNull();
  });

  it("passes on what stood in the way of the tag, unless the TXT record proves the domain", async () => {
    sites.https.set("moved.test", { status: 301, location: sites.urlOf("https", "elsewhere.test") });
    sites.publishTag("elsewhere.test", TOKEN);
    expect(await prover.prove({ domain: "moved.test", token: TOKEN, verifiedEmail: null })).toEqual({
      method: null,
      problem: DOMAIN_MESSAGES.redirectsAway("https://moved.test/", "elsewhere.test", "moved.test"),
    });
    dns.publishTxt("moved.test", TOKEN);
    expect(await prover.prove({ domain: "moved.test", token: TOKEN, verifiedEmail: null })).toEqual({
      method: "dns_txt",
      problem: null,
    });
    // A page that loads without the tag: nothing to explain beyond "not found yet".
    sites.https.set("plain.test", { html: "<!doctype html><title>Plain</title>" });
    expect(await prover.prove({ domain: "plain.test", token: TOKEN, verifiedEmail: null })).toEqual({
      method: null,
      problem: null,
    });
  });

  it("takes no address on a subdomain as proof of its parent", async () => {
    const outcome = await prover.prove({
      domain: "helpdesk-vendor.test",
      token: TOKEN,
      verifiedEmail: "support@acme.helpdesk-vendor.test",
    });
    expect(outcome).toEqual({ method: null, problem: null });
  });

  it("proves no public suffix, whatever is published on it", async () => {
    for (const domain of ["github.io", "co.uk"]) {
      dns.publishTxt(domain, TOKEN);
      sites.publishTag(domain, TOKEN);
      expect(
        (await prover.prove({ domain, token: TOKEN, verifiedEmail: `x@acme.${domain}` })).method,
      ).toBeNull();
    }
    expect(sites.asked).toEqual([]);
    expect(dns.queries).toEqual([]);
  });
});
