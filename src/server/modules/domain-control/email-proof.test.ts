import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { COMPANY_DOMAINS_LISTED_AS_FREE_MAIL, emailProvesDomain } from "./email-proof";
import { isOwnableDomain } from "./ownable-domain";

describe("proof (a): a verified address at the domain", () => {
  it.each([
    ["ceo@acme.com", "acme.com"],
    ["CEO@Acme.COM", "acme.com"],
    ["founder@acme.co.uk", "acme.co.uk"],
    ["dev@blog.acme.com", "blog.acme.com"],
    ["ceo@eu.acme.com", "eu.acme.com"],
    ["me@team.acme.co.uk", "team.acme.co.uk"],
  ])("%s proves %s", (email, domain) => {
    expect(emailProvesDomain(email, domain)).toBe(true);
  });

  it("an address at the parent domain does not prove a subdomain someone else may run", () => {
    expect(emailProvesDomain("ceo@acme.com", "shop.acme.com")).toBe(false);
  });

  it.each([
    ["support@acme-help.zendesk.com", "zendesk.com"],
    ["support@acme.freshdesk.com", "freshdesk.com"],
    ["acme-1234@robot.zapier.com", "zapier.com"],
    ["ceo@eu.acme.com", "acme.com"],
    ["ops@eu.mail.acme.com", "mail.acme.com"],
    ["me@team.acme.co.uk", "acme.co.uk"],
  ])("the subdomain mailbox %s does not prove its parent %s", (email, domain) => {
    expect(emailProvesDomain(email, domain)).toBe(false);
  });

  it.each([
    ["ceo@acme.com.evil.com", "acme.com"],
    ["ceo@evilacme.com", "acme.com"],
    ["ceo@acme.co", "acme.com"],
    ["ceo@acme.com", "acme.co"],
    ["ceo@notacme.com", "acme.com"],
    ["acme.com@evil.com", "acme.com"],
  ])("the lookalike %s does not prove %s", (email, domain) => {
    expect(emailProvesDomain(email, domain)).toBe(false);
  });

  it.each([
    ["someone@gmail.com", "gmail.com"],
    ["someone@googlemail.com", "googlemail.com"],
    ["someone@outlook.com", "outlook.com"],
    ["someone@hotmail.com", "hotmail.com"],
    ["someone@yahoo.co.uk", "yahoo.co.uk"],
    ["someone@protonmail.com", "protonmail.com"],
    ["someone@zoho.com", "zoho.com"],
    ["someone@gmail.com", "dialpad.com"],
    ["someone@eu.gmail.com", "eu.gmail.com"],
  ])("the free-mail address %s never proves %s, even the provider's own domain", (email, domain) => {
    expect(emailProvesDomain(email, domain)).toBe(false);
  });

  it("no public suffix is ownable, whatever the address", () => {
    expect(emailProvesDomain("someone@co.uk", "co.uk")).toBe(false);
    expect(emailProvesDomain("someone@github.io", "github.io")).toBe(false);
    expect(emailProvesDomain("someone@acme.github.io", "github.io")).toBe(false);
    expect(emailProvesDomain("someone@com", "com")).toBe(false);
  });
});

describe("companies the free-mail list names by mistake", () => {
  const listed = new Set<string>(createRequire(import.meta.url)("email-providers/all.json") as string[]);

  it.each([...COMPANY_DOMAINS_LISTED_AS_FREE_MAIL])("staff at %s prove it like any company's", (domain) => {
    // Each exception must still be on the list, or it is dead weight.
    expect(listed.has(domain)).toBe(true);
    expect(emailProvesDomain(`ceo@${domain}`, domain)).toBe(true);
    expect(emailProvesDomain(`ops@eu.${domain}`, domain)).toBe(false);
  });

  it("covers EasyPost and Clerk", () => {
    expect([...COMPANY_DOMAINS_LISTED_AS_FREE_MAIL]).toEqual(
      expect.arrayContaining(["easypost.com", "clerk.com"]),
    );
  });
});

describe("ownable domains", () => {
  it.each(["acme.com", "acme.co.uk", "shop.acme.com", "acme.github.io", "acme.test"])(
    "%s can be owned",
    (domain) => {
      expect(isOwnableDomain(domain)).toBe(true);
    },
  );

  it.each(["co.uk", "github.io", "com", "herokuapp.com", "127.0.0.1", "acme.com.", ""])(
    "%s cannot be owned",
    (domain) => {
      expect(isOwnableDomain(domain)).toBe(false);
    },
  );
});
