import { describe, expect, it } from "vitest";
import { isValidDomain, normalizeWebsite } from "./website";

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
