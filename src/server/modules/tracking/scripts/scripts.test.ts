import { gzipSync } from "node:zlib";
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { CLICK_SCRIPT } from "./click-script";
import { CONVERSION_SCRIPT } from "./conversion-script";

function page(url: string) {
  const dom = new JSDOM("<!doctype html><html><body></body></html>", { url, runScripts: "outside-only" });
  const requested: string[] = [];
  dom.window.Image = class {
    referrerPolicy = "";
    set src(value: string) {
      requested.push(value);
    }
  } as unknown as typeof dom.window.Image;
  return { dom, requested };
}

function withCurrentScript(dom: JSDOM, attributes: Record<string, string>) {
  const element = dom.window.document.createElement("script");
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  Object.defineProperty(dom.window.document, "currentScript", { value: element, configurable: true });
}

describe("install scripts", () => {
  it.each([
    ["click.js", CLICK_SCRIPT],
    ["conversion.js", CONVERSION_SCRIPT],
  ])("%s stays under 2 KB gzipped", (_name, source) => {
    expect(gzipSync(source).length).toBeLessThan(2048);
  });

  it("the click script keeps bclickid with a timestamp, sets no cookie, and forgets it after 30 days", () => {
    const { dom } = page("https://shop.example/landing?utm_source=x&bclickid=Abc_def-123456&y=1");
    dom.window.eval(CLICK_SCRIPT);
    const storage = dom.window.localStorage;
    expect(storage.getItem("buddy_bclickid")).toBe("Abc_def-123456");
    expect(Number(storage.getItem("buddy_bclickid_ts"))).toBeGreaterThan(Date.now() - 5000);
    expect(dom.window.document.cookie).toBe("");
    storage.setItem("buddy_bclickid_ts", String(Date.now() - 2_592_000_001));
    const later = dom.window as unknown as { buddy: { clickId(): string | null } };
    expect(later.buddy.clickId()).toBeNull();
    expect(storage.getItem("buddy_bclickid")).toBeNull();
  });

  it("the conversion script reports data-type on load and window.buddy.conversion on demand, through the pixel of its own origin", () => {
    const { dom, requested } = page("https://shop.example/thanks");
    dom.window.localStorage.setItem("buddy_bclickid", "click123456789");
    dom.window.localStorage.setItem("buddy_bclickid_ts", String(Date.now()));
    withCurrentScript(dom, {
      src: "https://buddy.example/api/tracking/conversion.js",
      "data-org": "org-9",
      "data-type": "signup",
    });
    dom.window.eval(CONVERSION_SCRIPT);
    expect(requested).toEqual([
      "https://buddy.example/api/marketing/conversion/click123456789?type=signup&org=org-9",
    ]);
    const api = dom.window as unknown as { buddy: { conversion(type: string): boolean } };
    expect(api.buddy.conversion("purchase")).toBe(true);
    expect(requested[1]).toBe(
      "https://buddy.example/api/marketing/conversion/click123456789?type=purchase&org=org-9",
    );
  });

  it("the conversion script sends no value or options, and warns once in the page's life (CONTRACT §5)", () => {
    const { dom, requested } = page("https://shop.example/thanks");
    dom.window.localStorage.setItem("buddy_bclickid", "click123456789");
    dom.window.localStorage.setItem("buddy_bclickid_ts", String(Date.now()));
    const warnings: unknown[][] = [];
    dom.window.console.warn = (...args: unknown[]) => warnings.push(args);
    withCurrentScript(dom, {
      src: "https://buddy.example/api/tracking/conversion.js",
      "data-org": "org-9",
    });
    dom.window.eval(CONVERSION_SCRIPT);
    expect(warnings).toEqual([]);
    const api = dom.window as unknown as {
      buddy: { conversion(type: string, value?: unknown, options?: Record<string, string>): boolean };
    };
    expect(api.buddy.conversion("signup", 99)).toBe(true);
    expect(api.buddy.conversion("signup", 99)).toBe(true);
    expect(
      api.buddy.conversion("purchase", 5000, { currency: "JPY", customerId: "cus_1", eventId: "in_1" }),
    ).toBe(true);
    // A second copy of the script on the page warns no more.
    dom.window.eval(CONVERSION_SCRIPT);
    expect(api.buddy.conversion("trial", null, { customerId: "cus_1" })).toBe(true);
    const pixel = "https://buddy.example/api/marketing/conversion/click123456789";
    expect(requested).toEqual([
      `${pixel}?type=signup&org=org-9`,
      `${pixel}?type=signup&org=org-9`,
      `${pixel}?type=purchase&org=org-9`,
      `${pixel}?type=trial&org=org-9`,
    ]);
    for (const url of requested) {
      const query = new URL(url).searchParams;
      for (const field of ["value", "currency", "eventId", "customerId"])
        expect(query.has(field)).toBe(false);
    }
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]?.[0])).toContain("POST /api/marketing/conversion");
    // Without a value, nothing to warn about: a fresh page stays silent.
    const quiet = page("https://shop.example/thanks");
    const quietWarnings: unknown[][] = [];
    quiet.dom.window.console.warn = (...args: unknown[]) => quietWarnings.push(args);
    withCurrentScript(quiet.dom, {
      src: "https://buddy.example/api/tracking/conversion.js",
      "data-org": "org-9",
    });
    quiet.dom.window.eval(CONVERSION_SCRIPT);
    (quiet.dom.window as unknown as { buddy: { conversion(type: string): boolean } }).buddy.conversion(
      "signup",
    );
    expect(quietWarnings).toEqual([]);
  });

  describe("click.js and Stripe's links, tables and buttons", () => {
    const CLICK = "Abc_def-123456";
    function stripePage(url: string, body: string) {
      const dom = new JSDOM(`<!doctype html><html><body>${body}</body></html>`, {
        url,
        runScripts: "outside-only",
      });
      dom.window.eval(CLICK_SCRIPT);
      return dom.window.document;
    }
    const refOf = (link: Element | null) =>
      new URL((link as HTMLAnchorElement).href).searchParams.get("client_reference_id");

    it("puts the kept click id on every Payment Link, pricing table and buy button on the page", () => {
      const doc = stripePage(
        `https://shop.example/pricing?bclickid=${CLICK}`,
        `<a id="plain" href="https://buy.stripe.com/test_abc">Buy</a>
        <a id="query" href="https://buy.stripe.com/test_def?prefilled_email=a%40b.example">Buy</a>
        <a id="other" href="https://shop.example/buy">Elsewhere</a>
        <stripe-pricing-table pricing-table-id="prctbl_1" publishable-key="pk_test_1"></stripe-pricing-table>
        <stripe-buy-button buy-button-id="buy_btn_1" publishable-key="pk_test_1"></stripe-buy-button>`,
      );
      expect(refOf(doc.getElementById("plain"))).toBe(CLICK);
      const query = new URL((doc.getElementById("query") as HTMLAnchorElement).href);
      expect(query.searchParams.get("client_reference_id")).toBe(CLICK);
      expect(query.searchParams.get("prefilled_email")).toBe("a@b.example");
      expect(doc.getElementById("other")?.getAttribute("href")).toBe("https://shop.example/buy");
      for (const tag of ["stripe-pricing-table", "stripe-buy-button"])
        expect(doc.querySelector(tag)?.getAttribute("client-reference-id")).toBe(CLICK);
    });

    it("tags what is added later, leaves the site's own reference alone, and does nothing without a click id", async () => {
      const doc = stripePage(
        `https://shop.example/pricing?bclickid=${CLICK}`,
        `<a id="site" href="https://buy.stripe.com/test_abc?client_reference_id=user_42">Buy</a>`,
      );
      expect(refOf(doc.getElementById("site"))).toBe("user_42");
      const link = doc.createElement("a");
      link.href = "https://buy.stripe.com/test_late";
      const table = doc.createElement("stripe-pricing-table");
      doc.body.append(link, table);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(refOf(link)).toBe(CLICK);
      expect(table.getAttribute("client-reference-id")).toBe(CLICK);

      const untracked = stripePage(
        "https://other.example/pricing",
        `<a id="plain" href="https://buy.stripe.com/test_abc">Buy</a><stripe-buy-button></stripe-buy-button>`,
      );
      expect(untracked.getElementById("plain")?.getAttribute("href")).toBe("https://buy.stripe.com/test_abc");
      expect(untracked.querySelector("stripe-buy-button")?.hasAttribute("client-reference-id")).toBe(false);
    });
  });

  it("the conversion script does nothing without a stored click id", () => {
    const { dom, requested } = page("https://shop.example/thanks");
    withCurrentScript(dom, {
      src: "https://buddy.example/api/tracking/conversion.js",
      "data-org": "org-9",
      "data-type": "signup",
    });
    dom.window.eval(CONVERSION_SCRIPT);
    expect(requested).toEqual([]);
  });
});
