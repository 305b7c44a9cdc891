import path from "node:path";
import { fileURLToPath } from "node:url";
import { constants as zlibConstants } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import type { Plugin } from "vite";
import { compression, defineAlgorithm } from "vite-plugin-compression2";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
const alias = [
  { find: "@", replacement: `${root}src/web` },
  { find: "@shared", replacement: `${root}src/shared` },
];
/**
 * The app's zod, configured for the page's CSP before any schema is built (src/web/lib/zod.ts and
 * zod-mini.ts). Only
 * for the browser build: tests keep zod as the server runs it (no CSP there, compiled parsers on).
 */
const appAlias = [
  { find: /^zod$/, replacement: `${root}src/web/lib/zod.ts` },
  { find: /^zod\/mini$/, replacement: `${root}src/web/lib/zod-mini.ts` },
  ...alias,
];

/**
 * The page's first paint is the static shell in the HTML and its stylesheet; the scripts only take
 * over from it. Marked low, they no longer compete with the stylesheet for a slow connection.
 */
const scriptsAfterPaint: Plugin = {
  name: "buddy:scripts-after-paint",
  apply: "build",
  transformIndexHtml: {
    order: "post",
    handler: (html) =>
      html.replace(/<(script type="module"|link rel="modulepreload")/g, '<$1 fetchpriority="low"'),
  },
};

/**
 * Every module the app's entry (`main.tsx`) imports statically goes into one chunk, which the page
 * loads at once anyway. Left to the bundler, the modules it shares with lazy screens become some
 * twenty small files, and on a phone's connection each costs a round trip of its own before the
 * first screen can render. Lazy screens keep their own chunks. The sign-in page, built from its
 * own entry, is left alone: it is one file already.
 */
function firstScreenChunk(): Plugin {
  let entry = "";
  let members: Set<string> | undefined;
  return {
    name: "buddy:first-screen-chunk",
    apply: "build",
    config: () => ({
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  debugName: "first screen",
                  name: (id, ctx) => {
                    if (!members) {
                      members = new Set();
                      const pending = [entry];
                      for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
                        if (members.has(next)) continue;
                        members.add(next);
                        pending.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
                      }
                    }
                    return members.has(id) ? "app" : null;
                  },
                },
              ],
            },
          },
        },
      },
    }),
    configResolved(config) {
      entry = path.join(config.root, "main.tsx");
    },
    buildStart() {
      members = undefined;
    },
  };
}

export default defineConfig(({ mode }) => ({
  root: "src/web",
  publicDir: "public",
  plugins: [
    react(),
    tailwindcss(),
    scriptsAfterPaint,
    firstScreenChunk(),
    // The server sends these files as they are (plugins/web.ts, preCompressed), so they are made once
    // here at the highest levels, which would cost too much per request. Text only: images and fonts
    // are compressed already. Below 256 bytes a response fits in one packet either way; a file whose
    // compressed form is no smaller gets none.
    compression({
      include: /\.(html|js|mjs|css|json|svg|txt|xml|webmanifest|map)$/,
      threshold: 256,
      algorithms: [
        defineAlgorithm("brotliCompress", {
          params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY },
        }),
        defineAlgorithm("gzip", { level: zlibConstants.Z_BEST_COMPRESSION }),
      ],
      logLevel: "silent",
    }),
  ],
  resolve: { alias: mode === "test" ? alias : appAlias },
  build: {
    outDir: `${root}dist/web`,
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    port: 5173,
    proxy: { "/api": "http://127.0.0.1:3000", "/s/": "http://127.0.0.1:3000" },
  },
  test: {
    root,
    projects: [
      {
        extends: true,
        test: {
          name: "server",
          root,
          environment: "node",
          include: ["src/server/**/*.test.ts", "src/shared/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["src/server/testing/instances/**"],
          // The migrated database every test app copies (testing/database.ts), made once per run.
          globalSetup: ["src/server/testing/global-setup.ts", "src/server/testing/database-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Several server processes, HAProxy, PostgreSQL and Redis of their own, killed and stopped
        // on purpose. Not in "server": that project runs twice in CI (PGlite, then PostgreSQL) and
        // these bring their own database, so once is enough. They run after the other projects and
        // one file at a time, because their deadlines (failover, "within a second") must not race
        // the rest of the suite for this machine's two cores.
        extends: true,
        test: {
          name: "instances",
          root,
          environment: "node",
          include: ["src/server/testing/instances/**/*.process.test.ts"],
          globalSetup: ["src/server/testing/global-setup.ts"],
          sequence: { groupOrder: 1 },
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "web",
          root,
          environment: "jsdom",
          include: ["src/web/**/*.test.{ts,tsx}"],
          setupFiles: ["src/web/test-setup.ts"],
          // A wizard walked key by key through jsdom takes about 2 s alone; beside the server
          // project on two cores it has taken over 5 s, the default.
          testTimeout: 20_000,
        },
      },
    ],
  },
}));
