import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
const alias = {
  "@": `${root}src/web`,
  "@shared": `${root}src/shared`,
};

export default defineConfig({
  root: "src/web",
  publicDir: "public",
  plugins: [react(), tailwindcss()],
  resolve: { alias },
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
          include: ["src/server/**/*.test.ts", "src/shared/**/*.test.ts"],
          globalSetup: ["src/server/test-global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
        },
      },
    ],
  },
});
