import { execFileSync } from "node:child_process";
import path from "node:path";

/** Process-level tests run the real bundle: build it once before any test file starts. */
export default function setup() {
  execFileSync(process.execPath, ["scripts/build-server.mjs"], {
    cwd: path.resolve(import.meta.dirname, "../../.."),
  });
}
