import { describe, expect, it } from "vitest";
import { displayCtaUrl, normalizeImageUrl, previewImageSrc } from "@/features/collateral/collateral-urls";

describe("displayCtaUrl", () => {
  it("drops the protocol, the query (UTM parameters) and the fragment", () => {
    expect(displayCtaUrl("https://acme.com/signup?utm_source=buddy&utm_medium=email#top")).toBe(
      "acme.com/signup",
    );
    expect(displayCtaUrl("http://www.acme.com/")).toBe("www.acme.com");
    expect(displayCtaUrl("https://acme.com:8080/a/b/")).toBe("acme.com:8080/a/b");
  });

  it("still strips what it can from a value that is not a URL", () => {
    expect(displayCtaUrl("acme.com/signup?x=1")).toBe("acme.com/signup");
  });
});

describe("normalizeImageUrl", () => {
  it("completes bare and protocol-relative addresses to https", () => {
    expect(normalizeImageUrl("  example.com/a.png ")).toBe("https://example.com/a.png");
    expect(normalizeImageUrl("//cdn.example.com/a.png")).toBe("https://cdn.example.com/a.png");
    expect(normalizeImageUrl("example.com:8080/a.png")).toBe("https://example.com:8080/a.png");
  });

  it("leaves full URLs, host-less paths and empty values alone", () => {
    expect(normalizeImageUrl("http://example.com/a.png")).toBe("http://example.com/a.png");
    expect(normalizeImageUrl("/images/a.png")).toBe("/images/a.png");
    expect(normalizeImageUrl("")).toBe("");
  });
});

describe("previewImageSrc", () => {
  it("accepts only http(s) URLs with a dotted host", () => {
    expect(previewImageSrc("https://example.com/a.png")).toBe("https://example.com/a.png");
    expect(previewImageSrc("example.com/a.png")).toBeNull();
    expect(previewImageSrc("https://localhost/a.png")).toBeNull();
    expect(previewImageSrc("javascript:alert(1)")).toBeNull();
    expect(previewImageSrc(null)).toBeNull();
  });
});
