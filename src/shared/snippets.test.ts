import { describe, expect, it } from "vitest";
import type { Ad } from "./ads";
import { renderAdHtml, renderAdText } from "./snippets";

const ad: Ad = {
  id: "c1",
  name: "<script>alert(1)</script>",
  description: "Quotes \" and ' and & too",
  ctaText: "Try <b>it</b>",
  ctaUrl: "https://buddy.example/s/abc",
  imageUrl: "javascript:alert(1)",
  company: { name: "Acme", website: "https://acme.example", description: null, domain: "acme.example" },
};

describe("ad snippets", () => {
  it("escapes every user text and drops non-http image URLs", () => {
    const html = renderAdHtml(ad, "card");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("Quotes &quot; and &#39; and &amp; too");
    expect(html).not.toContain("javascript:");
    expect(html).toContain('href="https://buddy.example/s/abc"');
  });

  it("uses tables and the template widths (simple 600, card 600, banner 800)", () => {
    expect(renderAdHtml(ad, "simple")).toMatch(/^<table[^>]*max-width:600px/);
    expect(renderAdHtml(ad, "card")).toMatch(/^<table[^>]*max-width:600px/);
    expect(renderAdHtml(ad, "banner")).toMatch(/^<table[^>]*max-width:800px/);
    expect(renderAdHtml(ad)).not.toMatch(/<(div|style|script)[ >]/);
  });

  it("writes plain text with the link", () => {
    expect(renderAdText(ad)).toBe(`${ad.name}\n${ad.description}\n${ad.ctaText}: ${ad.ctaUrl}`);
  });
});
