import type { Ad } from "@shared/ads";
import { renderAdHtml, renderAdJson, renderAdText } from "@shared/snippets";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  buildAd,
  type CopyNotifier,
  copySnippet,
  createShortUrl,
  previewDocument,
  renderSnippet,
  SHORT_URL_FAILED,
  SHORT_URL_FALLBACK,
  SHORT_URL_INVALID,
  ShortUrlError,
} from "@/features/collateral/snippet-copy";
import { setToken } from "@/lib/session";
import { fetchCalls, jsonResponse, stubFetch } from "@/testing/fetch-stub";
import { makeCollateral } from "@/testing/fixtures";

const SHORT_URL = "POST /api/short-url";
const TRACKED =
  "https://buddy.example/api/marketing/redirect?relationshipId=r1&collateralId=col-1&sourceOrgId=org-1&targetOrgId=org-2&url=https%3A%2F%2Fmailfast.io%2Fsignup&sig=abc";
const SHORT = "https://buddy.example/s/Ab3dE9";
const COMPANY: Ad["company"] = {
  name: "Mailfast",
  website: "https://mailfast.io",
  description: "Transactional email for developers.",
  domain: "mailfast.io",
};
const collateral = makeCollateral({
  id: "col-1",
  name: "Mailfast <for> teams",
  description: "Mail that arrives & gets read.",
  ctaText: "Start free",
  ctaUrl: "https://mailfast.io/signup",
  imageUrl: "https://mailfast.io/ad.png",
  organizationId: "org-2",
  trackedUrl: TRACKED,
});
const adWith = (ctaUrl: string) => buildAd(collateral, COMPANY, ctaUrl);

/** jsdom's Blob has no text(); FileReader it has. */
function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

/** ClipboardItem as browsers have it: a record of promised blobs by type. */
class FakeClipboardItem {
  constructor(readonly items: Record<string, Promise<Blob>>) {}
}

type Clipboard = {
  /** What ended on the clipboard, by type; null while nothing was written. */
  written: Record<string, string> | null;
  write: ReturnType<typeof vi.fn>;
  writeText: ReturnType<typeof vi.fn>;
};

function stubClipboard({
  rich = true,
  refuseRich = false,
  refuseText = false,
}: {
  rich?: boolean;
  refuseRich?: boolean;
  refuseText?: boolean;
} = {}): Clipboard {
  const clipboard: Clipboard = {
    written: null,
    write: vi.fn(async ([item]: FakeClipboardItem[]) => {
      const entries = Object.entries(item?.items ?? {});
      const texts = await Promise.all(
        entries.map(async ([type, blob]) => [type, await readBlob(await blob)]),
      );
      if (refuseRich) throw new DOMException("Write permission denied.", "NotAllowedError");
      clipboard.written = Object.fromEntries(texts);
    }),
    writeText: vi.fn(async (text: string) => {
      if (refuseText) throw new DOMException("Write permission denied.", "NotAllowedError");
      clipboard.written = { "text/plain": text };
    }),
  };
  const api: Partial<Clipboard> = { writeText: clipboard.writeText };
  if (rich) {
    api.write = clipboard.write;
    vi.stubGlobal("ClipboardItem", FakeClipboardItem);
  } else {
    vi.stubGlobal("ClipboardItem", undefined);
  }
  Object.defineProperty(navigator, "clipboard", { value: api, configurable: true });
  return clipboard;
}

function notifier() {
  const calls: Array<[keyof CopyNotifier, string]> = [];
  const notify: CopyNotifier = {
    success: (message) => calls.push(["success", message]),
    warning: (message) => calls.push(["warning", message]),
    error: (message) => calls.push(["error", message]),
  };
  return { notify, calls };
}

function shortens(response: Response | (() => Response | Promise<Response>)) {
  return stubFetch({ [SHORT_URL]: typeof response === "function" ? () => response() : response });
}

beforeEach(() => {
  setToken("token");
  vi.spyOn(console, "error").mockImplementation(() => {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

afterEach(() => {
  Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true });
});

describe("createShortUrl", () => {
  it("posts the tracked link with the session's bearer token and returns the short link", async () => {
    const fetchMock = shortens(jsonResponse(201, { shortUrl: SHORT }));
    await expect(createShortUrl(TRACKED)).resolves.toBe(SHORT);
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ longUrl: TRACKED });
    expect(new Headers(init?.headers).get("Authorization")).toBe("Bearer token");
  });

  it.each([
    ["a 400 {error}", () => jsonResponse(400, { error: "longUrl must be a tracked link of this platform" })],
    ["a 500", () => jsonResponse(500, { message: "Internal Server Error" })],
    [
      "a network failure",
      () => {
        throw new TypeError("Failed to fetch");
      },
    ],
  ])("says 'Failed to create short URL' for %s", async (_case, respond) => {
    shortens(respond);
    await expect(createShortUrl(TRACKED)).rejects.toEqual(new ShortUrlError(SHORT_URL_FAILED));
  });

  it.each([
    ["no shortUrl", {}],
    ["a shortUrl that is not a string", { shortUrl: 42 }],
    ["a shortUrl that is not an http(s) URL", { shortUrl: "javascript:alert(1)" }],
  ])("says 'Invalid response from short URL service' for a 2xx with %s", async (_case, body) => {
    shortens(jsonResponse(201, body));
    await expect(createShortUrl(TRACKED)).rejects.toEqual(new ShortUrlError(SHORT_URL_INVALID));
  });

  it("fails without asking the server when there is no tracked link", async () => {
    const fetchMock = shortens(jsonResponse(201, { shortUrl: SHORT }));
    await expect(createShortUrl(null)).rejects.toEqual(new ShortUrlError(SHORT_URL_FAILED));
    expect(fetchCalls(fetchMock)).toEqual([]);
  });
});

describe("buildAd and renderSnippet", () => {
  it("builds the SPEC §3 ad from the collateral, the Buddy and the link", () => {
    expect(adWith(SHORT)).toEqual({
      id: "col-1",
      name: "Mailfast <for> teams",
      description: "Mail that arrives & gets read.",
      ctaText: "Start free",
      ctaUrl: SHORT,
      imageUrl: "https://mailfast.io/ad.png",
      company: COMPANY,
    });
  });

  it("renders with the shared renderers: HTML as both flavours, text and JSON as plain text", () => {
    const ad = adWith(SHORT);
    expect(renderSnippet("html", ad, "banner")).toEqual({
      html: renderAdHtml(ad, "banner"),
      text: renderAdHtml(ad, "banner"),
    });
    expect(renderSnippet("html", ad)).toEqual(renderSnippet("html", ad, "simple"));
    expect(renderSnippet("text", ad)).toEqual({ text: renderAdText(ad) });
    expect(renderSnippet("json", ad)).toEqual({ text: renderAdJson(ad) });
  });

  it("wraps the preview in its own document", () => {
    const doc = previewDocument("<table><tr><td>Ad</td></tr></table>");
    expect(doc).toMatch(/^<!doctype html>/);
    expect(doc).toContain("<body><table><tr><td>Ad</td></tr></table></body>");
  });
});

describe("copySnippet", () => {
  it("Copy HTML puts the rendered ad with the short link on the clipboard as HTML and as text", async () => {
    shortens(jsonResponse(201, { shortUrl: SHORT }));
    const clipboard = stubClipboard();
    const { notify, calls } = notifier();

    await expect(
      copySnippet({ format: "html", collateral, company: COMPANY, template: "card" }, notify),
    ).resolves.toBe(true);
    const html = renderAdHtml(adWith(SHORT), "card");
    expect(clipboard.written).toEqual({ "text/html": html, "text/plain": html });
    expect(html).toContain(`href="${SHORT}"`);
    expect(calls).toEqual([["success", "HTML copied to clipboard"]]);
  });

  it("reaches the clipboard within the click, before the short link has come back", async () => {
    let answer: (response: Response) => void = () => {};
    shortens(() => new Promise<Response>((resolve) => (answer = resolve)));
    const clipboard = stubClipboard();
    const { notify, calls } = notifier();

    const copied = copySnippet({ format: "text", collateral, company: COMPANY }, notify);
    expect(clipboard.write).toHaveBeenCalledTimes(1);
    expect(clipboard.written).toBeNull();
    answer(jsonResponse(201, { shortUrl: SHORT }));
    await expect(copied).resolves.toBe(true);
    expect(clipboard.written).toEqual({ "text/plain": renderAdText(adWith(SHORT)) });
    expect(calls).toEqual([["success", "Text copied to clipboard"]]);
  });

  it.each([
    ["fails", () => jsonResponse(400, { error: "longUrl must be a tracked link of this platform" })],
    ["answers without a shortUrl", () => jsonResponse(201, {})],
  ])("Copy HTML warns and uses the full tracked link when shortening %s", async (_case, respond) => {
    shortens(respond);
    const clipboard = stubClipboard();
    const { notify, calls } = notifier();

    await expect(copySnippet({ format: "html", collateral, company: COMPANY }, notify)).resolves.toBe(true);
    const html = renderAdHtml(adWith(TRACKED), "simple");
    expect(clipboard.written).toEqual({ "text/html": html, "text/plain": html });
    expect(calls).toEqual([
      ["warning", SHORT_URL_FALLBACK],
      ["success", "HTML copied to clipboard"],
    ]);
  });

  it("Copy Text puts the text ad with the short link on the clipboard", async () => {
    shortens(jsonResponse(201, { shortUrl: SHORT }));
    const clipboard = stubClipboard();
    const { notify, calls } = notifier();

    await copySnippet({ format: "text", collateral, company: COMPANY }, notify);
    expect(clipboard.written).toEqual({
      "text/plain": `Mailfast <for> teams\nMail that arrives & gets read.\nStart free: ${SHORT}`,
    });
    expect(calls).toEqual([["success", "Text copied to clipboard"]]);
  });

  it("Copy JSON puts the ad as JSON with the short link on the clipboard", async () => {
    shortens(jsonResponse(201, { shortUrl: SHORT }));
    const clipboard = stubClipboard();
    const { notify, calls } = notifier();

    await copySnippet({ format: "json", collateral, company: COMPANY }, notify);
    expect(JSON.parse(clipboard.written?.["text/plain"] ?? "")).toEqual(adWith(SHORT));
    expect(calls).toEqual([["success", "JSON copied to clipboard"]]);
  });

  it.each([
    ["text", "a failed request", () => jsonResponse(500, {}), SHORT_URL_FAILED],
    ["json", "a failed request", () => jsonResponse(400, { error: "nope" }), SHORT_URL_FAILED],
    ["text", "a 2xx without shortUrl", () => jsonResponse(201, { url: SHORT }), SHORT_URL_INVALID],
    ["json", "a 2xx without shortUrl", () => jsonResponse(200, {}), SHORT_URL_INVALID],
  ] as const)(
    "Copy %s stops on %s with its notice and copies nothing",
    async (format, _case, respond, notice) => {
      shortens(respond);
      const clipboard = stubClipboard();
      const { notify, calls } = notifier();

      await expect(copySnippet({ format, collateral, company: COMPANY }, notify)).resolves.toBe(false);
      expect(clipboard.written).toBeNull();
      expect(clipboard.writeText).not.toHaveBeenCalled();
      expect(calls).toEqual([["error", notice]]);
    },
  );

  it.each([
    ["html", "Failed to copy HTML"],
    ["text", "Failed to copy text"],
    ["json", "Failed to copy JSON"],
  ] as const)("Copy %s says '%s' when the clipboard refuses", async (format, notice) => {
    shortens(jsonResponse(201, { shortUrl: SHORT }));
    stubClipboard({ refuseRich: true, refuseText: true });
    const { notify, calls } = notifier();

    await expect(copySnippet({ format, collateral, company: COMPANY }, notify)).resolves.toBe(false);
    expect(calls).toEqual([["error", notice]]);
  });

  it("says 'Failed to copy …' when there is no clipboard at all", async () => {
    shortens(jsonResponse(201, { shortUrl: SHORT }));
    const { notify, calls } = notifier();
    await expect(copySnippet({ format: "json", collateral, company: COMPANY }, notify)).resolves.toBe(false);
    expect(calls).toEqual([["error", "Failed to copy JSON"]]);
  });

  it("falls back to writeText with the markup when the browser has no ClipboardItem", async () => {
    shortens(jsonResponse(201, { shortUrl: SHORT }));
    const clipboard = stubClipboard({ rich: false });
    const { notify, calls } = notifier();

    await copySnippet({ format: "html", collateral, company: COMPANY }, notify);
    expect(clipboard.writeText).toHaveBeenCalledWith(renderAdHtml(adWith(SHORT), "simple"));
    expect(calls).toEqual([["success", "HTML copied to clipboard"]]);
  });

  it("falls back to writeText when the rich write is refused", async () => {
    shortens(jsonResponse(201, { shortUrl: SHORT }));
    const clipboard = stubClipboard({ refuseRich: true });
    const { notify, calls } = notifier();

    await copySnippet({ format: "html", collateral, company: COMPANY, template: "banner" }, notify);
    expect(clipboard.write).toHaveBeenCalledTimes(1);
    expect(clipboard.written).toEqual({ "text/plain": renderAdHtml(adWith(SHORT), "banner") });
    expect(calls).toEqual([["success", "HTML copied to clipboard"]]);
  });
});
