// Bundles the server into dist/server/main.js; npm packages stay external (node_modules).
import { build } from "esbuild";

const result = await build({
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
  metafile: true,
});

// Test support (src/server/testing/: fakes, local servers, helpers) never ships: a production
// module that imports it fails the build instead of bundling it.
const testSupport = Object.keys(result.metafile.inputs).filter((input) =>
  input.startsWith("src/server/testing/"),
);
if (testSupport.length > 0) {
  throw new Error(`The server bundle must not contain test support: ${testSupport.join(", ")}`);
}
