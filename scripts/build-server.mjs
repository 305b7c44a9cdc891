// Bundles the server into dist/server/main.js; npm packages stay external (node_modules).
import { build } from "esbuild";

await build({
  entryPoints: ["src/server/main.ts"],
  outfile: "dist/server/main.js",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external",
  tsconfig: "tsconfig.server.json",
  sourcemap: "linked",
  logLevel: "warning",
});
