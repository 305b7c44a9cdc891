import { describe, expect, it } from "vitest";
import { parseDomainList, registrableDomain } from "./overlap-domains";

describe("registrable domains (CONTRACT §11)", () => {
  it.each([
    ["https://www.Acme.co.uk/x", "acme.co.uk"],
    ["ACME.com", "acme.com"],
    ["sales.eu.acme.com", "acme.com"],
    ["jo@Acme.com", "acme.com"],
    ["mailto:jo@acme.io", "acme.io"],
    ["http://acme.com:8080/pricing?x=1", "acme.com"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["xn--bcher-kva.de", "xn--bcher-kva.de"],
    ["shop.example.github.io", "example.github.io"],
  ])("%s → %s", (input, expected) => {
    expect(registrableDomain(input)).toBe(expected);
  });

  it.each(["Website", "localhost", "192.168.1.1", "co.uk", "", "http://"])("%s is no domain", (input) => {
    expect(registrableDomain(input)).toBeNull();
  });
});

describe("a pasted list or a CSV", () => {
  it("takes every cell that is a domain, deduplicated and sorted, and ignores headers and figures", () => {
    const csv = [
      "Company,Website,Contact,ARR",
      'Acme,https://www.acme.com,jo@acme.com,"12,000.50"',
      "Beta Ltd,beta.co.uk,,49.99",
      "Gamma,gamma.io;www.gamma.io,,",
      "Broken,not-a-domain.invalidtld,,",
    ].join("\n");
    const parsed = parseDomainList(csv);
    expect(parsed.domains).toEqual(["acme.com", "beta.co.uk", "gamma.io"]);
    expect(parsed.skipped).toBe(1);
  });

  it("reads one domain per line with spaces and tabs around", () => {
    expect(parseDomainList("  a.com\n\tb.com \r\nA.COM\n").domains).toEqual(["a.com", "b.com"]);
  });
});
