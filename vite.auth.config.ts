import { fileURLToPath } from "node:url";
import { defineConfig, mergeConfig } from "vite";
import app from "./vite.config.ts";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * The sign-in page (auth.html) is built on its own, after the app and into the same folder. In
 * one build it would share chunks with the app, and a shared chunk holds everything any page uses
 * of a module: the page would load zod's full core for its three fields.
 */
export default defineConfig((env) =>
  mergeConfig(
    { ...app(env), test: undefined },
    {
      build: {
        emptyOutDir: false,
        // Its one lazy piece is the toaster, loaded on the first notice: no preload machinery needed.
        modulePreload: false,
        rolldownOptions: { input: { auth: `${root}src/web/auth.html` } },
      },
    },
  ),
);
