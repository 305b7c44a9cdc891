import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { LightMyRequestResponse } from "fastify";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/app";
import { CACHE_CONTROL } from "./web";

/**
 * A small app built by the project's own Vite config (vite.config.ts), then served by the real
 * server: what the build writes is what the server sends.
 */
const repoRoot = path.resolve(import.meta.dirname, "../../..");
let workDir: string;
let webRoot: string;
let t: TestApp;
/** The chunk of everything the entry imports: large enough to be compressed. */
let mainJs: string;
/** The chunk of a screen loaded on demand, which shares a module with the first screen. */
let lazyJs: string;
/** A lazy chunk under the build's threshold, which gets no compressed copies. */
let tinyJs: string;
let css: string;

const SIGN_IN_PAGE = `<!doctype html>\n<html lang="en"><head><title>Buddy</title></head><body><div id="root"></div></body></html>\n`;
const WORDS = Array.from({ length: 600 }, (_, i) => `partner-${i % 37}-ecosystem-${i}`);

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), "buddy-web-build-"));
  const source = path.join(workDir, "src");
  webRoot = path.join(workDir, "web");
  mkdirSync(path.join(source, "public"), { recursive: true });
  writeFileSync(
    path.join(source, "index.html"),
    `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="UTF-8" />\n<title>Buddy</title>\n` +
      `<meta name="description" content="Buddy: partner-ecosystem marketing for software companies" />\n` +
      `<link rel="icon" type="image/svg+xml" href="/favicon.svg" />\n</head>\n` +
      `<body><div id="root"></div><script type="module" src="/main.tsx"></script></body>\n</html>\n`,
  );
  writeFileSync(
    path.join(source, "main.tsx"),
    `import "./style.css";\nimport { words } from "./words";\nimport { label } from "./label";\n` +
      `document.body.textContent = label(words);\n` +
      `document.body.addEventListener("dblclick", () => import("./lazy").then((m) => m.lazy()));\n` +
      `document.body.addEventListener("click", () => import("./tiny").then((m) => m.tiny()));\n`,
  );
  writeFileSync(path.join(source, "words.ts"), `export const words = ${JSON.stringify(WORDS)};\n`);
  writeFileSync(path.join(source, "tiny.ts"), `export const tiny = () => 1;\n`);
  // Used by the first screen and by a lazy one: on its own, the bundler would give it a chunk.
  writeFileSync(
    path.join(source, "label.ts"),
    `export function label(words: string[]) {\n  return words.map((word, i) => \`\${i}: \${word}\`).join(" ");\n}\n`,
  );
  writeFileSync(
    path.join(source, "lazy.ts"),
    `import { label } from "./label";\nexport const lazy = () => label(${JSON.stringify(WORDS.slice(0, 20))});\n`,
  );
  writeFileSync(
    path.join(source, "style.css"),
    Array.from({ length: 80 }, (_, i) => `.card-${i} { padding: ${i}px; color: #123456; }`).join("\n"),
  );
  writeFileSync(
    path.join(source, "public", "favicon.svg"),
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${'<rect width="32" height="32" rx="8" fill="#4f46e5"/>'.repeat(8)}</svg>`,
  );
  // Outside the web root: what a path traversal would be after.
  writeFileSync(path.join(workDir, "secret.txt"), "top secret");
  writeFileSync(path.join(workDir, "secret.txt.br"), "top secret");

  await build({
    configFile: path.join(repoRoot, "vite.config.ts"),
    root: source,
    logLevel: "silent",
    build: { outDir: webRoot, emptyOutDir: true },
  });
  const assets = readdirSync(path.join(webRoot, "assets"));
  mainJs = `assets/${assets.find((file) => file.startsWith("app-") && file.endsWith(".js"))}`;
  lazyJs = `assets/${assets.find((file) => file.startsWith("lazy-") && file.endsWith(".js"))}`;
  tinyJs = `assets/${assets.find((file) => file.startsWith("tiny-") && file.endsWith(".js"))}`;
  css = `assets/${assets.find((file) => file.endsWith(".css"))}`;
  // The sign-in page's own entry, as `vite build --config vite.auth.config.ts` adds it.
  writeFileSync(path.join(webRoot, "auth.html"), SIGN_IN_PAGE);
  t = await createTestApp({ webRoot });
}, 120_000);

afterAll(async () => {
  await t?.close();
  rmSync(workDir, { recursive: true, force: true });
});

const file = (name: string) => readFileSync(path.join(webRoot, name));
const get = (url: string, acceptEncoding?: string, method: "GET" | "HEAD" = "GET") =>
  t.app.inject({
    method,
    url,
    headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
  });

/** The body as the client reads it once it has undone the Content-Encoding. */
function decoded(response: LightMyRequestResponse): Buffer {
  const encoding = response.headers["content-encoding"];
  if (encoding === "br") return brotliDecompressSync(response.rawPayload);
  if (encoding === "gzip") return gunzipSync(response.rawPayload);
  expect(encoding).toBeUndefined();
  return response.rawPayload;
}

describe("the web build", () => {
  it("marks the page's scripts low priority, so the stylesheet its static shell needs comes first", () => {
    const html = file("index.html").toString();
    const scripts = html.match(/<(script|link rel="modulepreload")[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain('fetchpriority="low"');
    expect(html).toMatch(/<link rel="stylesheet"(?![^>]*fetchpriority)[^>]*>/);
  });

  it("puts all the first screen imports into one chunk the page preloads, and leaves lazy screens apart", () => {
    const html = file("index.html").toString();
    expect(html).toContain(`href="/${mainJs}"`);
    const scripts = readdirSync(path.join(webRoot, "assets")).filter((name) => name.endsWith(".js"));
    // The entry, the chunk of its imports and the two lazy screens: the module the first screen
    // shares with a lazy one (label.ts) is in the first screen's chunk, not in one of its own.
    expect(scripts.map((name) => name.replace(/-[\w-]+\.js$/, "")).sort()).toEqual([
      "app",
      "index",
      "lazy",
      "tiny",
    ]);
    expect(file(mainJs).toString()).toContain("partner-0-ecosystem-0");
    expect(file(lazyJs).toString()).toMatch(/from\s*"\.\/app-[\w-]+\.js"/);
  });

  it("writes a Brotli and a gzip copy beside each text file worth it, with the same content", () => {
    for (const name of [mainJs, css, "index.html", "favicon.svg"]) {
      const original = file(name);
      const br = file(`${name}.br`);
      const gz = file(`${name}.gz`);
      expect(brotliDecompressSync(br).equals(original), name).toBe(true);
      expect(gunzipSync(gz).equals(original), name).toBe(true);
      expect(br.length, name).toBeLessThan(gz.length);
      expect(gz.length, name).toBeLessThan(original.length);
    }
    // A few hundred bytes fit in one packet either way.
    expect(file(tinyJs).length).toBeLessThan(256);
    expect(existsSync(path.join(webRoot, `${tinyJs}.br`))).toBe(false);
    expect(existsSync(path.join(webRoot, `${tinyJs}.gz`))).toBe(false);
  });
});

describe("the web app's files", () => {
  it("are sent precompressed as the client accepts: br first, then gzip, else as they are", async () => {
    const original = file(mainJs);
    const cases: [string | undefined, string | undefined][] = [
      ["gzip, deflate, br, zstd", "br"],
      ["br", "br"],
      ["gzip", "gzip"],
      ["br;q=0.5, gzip", "gzip"],
      // "Anything" is taken as gzip, which every client that says so can read.
      ["*", "gzip"],
      ["deflate", undefined],
      ["identity", undefined],
      ["br;q=0, gzip;q=0", undefined],
      [undefined, undefined],
    ];
    for (const [acceptEncoding, expected] of cases) {
      const response = await get(`/${mainJs}`, acceptEncoding);
      const label = `Accept-Encoding: ${acceptEncoding}`;
      expect(response.statusCode, label).toBe(200);
      expect(response.headers["content-encoding"], label).toBe(expected);
      expect(response.headers.vary, label).toBe("accept-encoding");
      expect(response.headers["content-type"], label).toBe("application/javascript; charset=utf-8");
      // The compressed copy is sent as it was built, with its length.
      const sent = expected ? file(`${mainJs}.${expected === "br" ? "br" : "gz"}`) : original;
      expect(response.rawPayload.equals(sent), label).toBe(true);
      expect(Number(response.headers["content-length"]), label).toBe(sent.length);
      expect(decoded(response).equals(original), label).toBe(true);
    }
  });

  it("caches hashed assets for a year, immutable, and keeps the security headers", async () => {
    for (const name of [mainJs, css, tinyJs]) {
      const response = await get(`/${name}`, "gzip, deflate, br");
      expect(response.statusCode, name).toBe(200);
      expect(response.headers["cache-control"], name).toBe("public, max-age=31536000, immutable");
      expect(response.headers["content-security-policy"], name).toContain("default-src 'self'");
      expect(response.headers["x-content-type-options"], name).toBe("nosniff");
      expect(decoded(response).equals(file(name)), name).toBe(true);
    }
    // No compressed copy of the tiny chunk: sent as it is, and still marked as chosen by encoding.
    const tiny = await get(`/${tinyJs}`, "br");
    expect(tiny.headers["content-encoding"]).toBeUndefined();
    expect(tiny.headers.vary).toBe("accept-encoding");
    const styles = await get(`/${css}`, "br");
    expect(styles.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(styles.headers["content-encoding"]).toBe("br");
  });

  it("sends index.html, compressed and never cached unrevalidated, for / and every client route", async () => {
    const page = file("index.html");
    for (const url of ["/", "/index.html", "/dashboard", "/authx", "/dashboard/relationships?tab=all"]) {
      for (const [acceptEncoding, expected] of [
        ["gzip, deflate, br", "br"],
        ["gzip", "gzip"],
        [undefined, undefined],
      ] as const) {
        const response = await get(url, acceptEncoding);
        const label = `${url} ${acceptEncoding}`;
        expect(response.statusCode, label).toBe(200);
        expect(response.headers["content-type"], label).toBe("text/html; charset=utf-8");
        expect(response.headers["cache-control"], label).toBe(CACHE_CONTROL.page);
        expect(response.headers["content-encoding"], label).toBe(expected);
        expect(response.headers.vary, label).toBe("accept-encoding");
        expect(response.headers["content-security-policy"], label).toContain(
          "script-src 'self' 'wasm-unsafe-eval';",
        );
        expect(response.headers["content-security-policy"], label).not.toContain("'unsafe-eval'");
        expect(response.headers["x-frame-options"], label).toBe("SAMEORIGIN");
        expect(decoded(response).equals(page), label).toBe(true);
      }
    }
  });

  it("sends the sign-in page's own entry for /auth, never cached unrevalidated", async () => {
    for (const url of ["/auth", "/auth/", "/auth?tab=register&invite=x", "/auth.html"]) {
      const response = await get(url, "gzip, br");
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-type"], url).toBe("text/html; charset=utf-8");
      expect(response.headers["cache-control"], url).toBe(CACHE_CONTROL.page);
      expect(response.headers["content-security-policy"], url).toContain("script-src 'self'");
      expect(decoded(response).toString(), url).toBe(SIGN_IN_PAGE);
    }
  });

  it("caches other public files briefly, revalidated by their ETag", async () => {
    const response = await get("/favicon.svg", "br");
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe(CACHE_CONTROL.other);
    expect(response.headers["content-type"]).toBe("image/svg+xml");
    expect(response.headers["content-encoding"]).toBe("br");
    expect(decoded(response).equals(file("favicon.svg"))).toBe(true);
    const etag = String(response.headers.etag);
    const again = await t.app.inject({
      url: "/favicon.svg",
      headers: { "accept-encoding": "br", "if-none-match": etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // Each encoding is its own representation: a gzip client never revalidates a br copy.
    expect((await get("/favicon.svg", "gzip")).headers.etag).not.toBe(etag);
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    for (const url of [`/${mainJs}`, "/dashboard"]) {
      const full = await get(url, "br");
      const head = await get(url, "br", "HEAD");
      expect(head.statusCode, url).toBe(200);
      expect(head.rawPayload.length, url).toBe(0);
      for (const name of [
        "content-encoding",
        "content-length",
        "content-type",
        "vary",
        "cache-control",
        "etag",
      ])
        expect(head.headers[name], `${url} ${name}`).toBe(full.headers[name]);
    }
  });

  it("never sends a file outside the web root, compressed or not", async () => {
    for (const url of [
      "/../secret.txt",
      "/..%2fsecret.txt",
      "/%2e%2e/secret.txt",
      "/assets/..%2f..%2fsecret.txt",
      "/assets/%2e%2e/%2e%2e/secret.txt",
      "/%2e%2e%5csecret.txt",
    ]) {
      for (const acceptEncoding of ["br", undefined]) {
        const response = await get(url, acceptEncoding);
        const label = `${url} ${acceptEncoding}`;
        expect(response.statusCode, label).toBeGreaterThanOrEqual(400);
        expect(response.body, label).not.toContain("top secret");
        expect(response.headers["content-encoding"], label).toBeUndefined();
      }
    }
  });

  it("answers a missing asset 404, not the page", async () => {
    const response = await get("/assets/missing-AbCd1234.js", "br");
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: "Not found" });
  });
});
