import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeVersionProblem } from "./node-version.mjs";

const root = path.resolve(import.meta.dirname, "..");
const { engines } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));

describe("the Node.js version check of npm start", () => {
  it("turns away an older Node in one line naming both versions", () => {
    expect(nodeVersionProblem(">=20.19.0", "v18.20.4")).toBe(
      "Buddy needs Node.js 20.19 or newer; this is v18.20.4.",
    );
    expect(nodeVersionProblem(">=20.19.0", "v20.18.3")).toMatch(/^Buddy needs Node.js 20.19 or newer/);
    expect(nodeVersionProblem(">=20.19.2", "v20.19.1")).toBe(
      "Buddy needs Node.js 20.19.2 or newer; this is v20.19.1.",
    );
  });

  it("lets the declared version and every later one through", () => {
    for (const version of [
      "v20.19.0",
      "v20.20.2",
      "v21.0.0",
      "v22.12.0",
      "v24.1.0",
      "v20.19.0-nightly2025",
    ]) {
      expect(nodeVersionProblem(">=20.19.0", version)).toBeUndefined();
    }
  });

  it("reads package.json's engines.node, which this Node satisfies", () => {
    expect(nodeVersionProblem(engines.node, process.version)).toBeUndefined();
    expect(nodeVersionProblem(engines.node, "v18.20.4")).toMatch(/^Buddy needs Node.js \d+\.\d+/);
    expect(() => nodeVersionProblem("^20.19.0 || >=22", "v20.19.0")).toThrow(/engines.node/);
  });

  it("stops npm start before it builds or runs anything", () => {
    const result = spawnSync(
      process.execPath,
      // An older Node, as far as start.mjs can tell.
      [
        "--import",
        'data:text/javascript,Object.defineProperty(process,"version",{value:"v18.20.4"})',
        "scripts/start.mjs",
      ],
      // Should the check let it through, the server refuses this port rather than stay up.
      { cwd: root, encoding: "utf8", env: { PATH: process.env.PATH, PORT: "not-a-port" }, timeout: 60_000 },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toBe("Buddy needs Node.js 20.19 or newer; this is v18.20.4.\n");
    expect(result.stdout).toBe("");
  });
});
