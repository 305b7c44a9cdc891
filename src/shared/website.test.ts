import { describe, expect, it } from "vitest";
import { isValidDomain, normalizeWebsite, urlIsOnDomain } from "./website";

describe("normalizeWebsite", () => {
  it.each([
    ["https://www.Acme.com/", "acme.com"],
    ["acme.com", "acme.com"],
    ["  http://acme.com/pricing?x=1 ", "acme.com"],
    ["WWW.acme.io#top", "acme.io"],
    ["https://app.acme.com:8443/login", "app.acme.com"],
  ])("turns %s into %s", (input, expected) => {
    expect(normalizeWebsite(input)).toBe(expected);
  });

  it("accepts a domain with a dot and no space only", () => {
    expect(isValidDomain("acme.com")).toBe(true);
    expect(isValidDomain("acme")).toBe(false);
    expect(isValidDomain("ac me.com")).toBe(false);
  });
});

describe("urlIsOnDomain", () => {
  it("a URL is on a domain only when its host is the domain or one of its subdomains", () => {
    expect(urlIsOnDomain("https://acme.com/pricing", "acme.com")).toBe(true);
    expect(urlIsOnDomain("https://www.acme.com/", "acme.com")).toBe(true);
    expect(urlIsOnDomain("http://Go.ACME.com./x", "acme.com")).toBe(true);
    expect(urlIsOnDomain("https://acme.com.evil.com/", "acme.com")).toBe(false);
    expect(urlIsOnDomain("https://evilacme.com/", "acme.com")).toBe(false);
    expect(urlIsOnDomain("https://evil.com/?u=https://acme.com/", "acme.com")).toBe(false);
    expect(urlIsOnDomain("https://acme.com@evil.com/", "acme.com")).toBe(false);
    expect(urlIsOnDomain("/relative", "acme.com")).toBe(false);
  });
});
