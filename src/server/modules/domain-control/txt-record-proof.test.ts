import { siteVerificationTxtRecord } from "@shared/domain-verification";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type DnsServer, startDnsServer } from "../../testing/domain-proof";
import { txtRecordProvesDomain } from "./txt-record-proof";

const TOKEN = "tok_right_0123456789";
let dns: DnsServer;

beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(() => dns.close());
beforeEach(() => {
  dns.txt.clear();
  dns.silent.clear();
  dns.queries.length = 0;
});

const proves = (domain = "acme.test", token = TOKEN) => txtRecordProvesDomain(domain, token, dns.resolver());

describe("proof (c): the TXT record, asked of a real DNS server", () => {
  it("proves the domain with the claimant's record among the domain's others", async () => {
    dns.txt.set("acme.test", [
      ["v=spf1 include:_spf.example.com ~all"],
      [siteVerificationTxtRecord(TOKEN)],
      ["google-site-verification=abc"],
    ]);
    expect(await proves()).toBe(true);
    expect(dns.queries).toEqual(["acme.test"]);
  });

  it("joins a record the DNS split into several strings", async () => {
    const record = siteVerificationTxtRecord(TOKEN);
    dns.txt.set("acme.test", [[record.slice(0, 10), record.slice(10, 20), record.slice(20)]]);
    expect(await proves()).toBe(true);
  });

  it("does not prove it with another token, a bare token or the record of a subdomain", async () => {
    dns.txt.set("acme.test", [[siteVerificationTxtRecord("tok_someone_else")], [TOKEN]]);
    dns.txt.set("www.acme.test", [[siteVerificationTxtRecord(TOKEN)]]);
    expect(await proves()).toBe(false);
  });

  it("does not count a record split across separate records", async () => {
    const record = siteVerificationTxtRecord(TOKEN);
    dns.txt.set("acme.test", [[record.slice(0, 12)], [record.slice(12)]]);
    expect(await proves()).toBe(false);
  });

  it("is no proof for a name that does not exist (NXDOMAIN) or has no TXT record", async () => {
    expect(await proves("nowhere.test")).toBe(false);
    dns.txt.set("empty.test", []);
    expect(await proves("empty.test")).toBe(false);
  });

  it("is no proof, soon, when the server never answers", async () => {
    dns.silent.add("acme.test");
    dns.txt.set("acme.test", [[siteVerificationTxtRecord(TOKEN)]]);
    const started = performance.now();
    const proved = await txtRecordProvesDomain("acme.test", TOKEN, dns.resolver({ timeout: 150, tries: 1 }));
    expect(proved).toBe(false);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(dns.queries).toContain("acme.test");
  });
});
