// `npm start`: builds the web app and the server when their output is missing or older than
// the sources, then runs the server in this process. In this process, not a child: a SIGTERM to
// the start command must reach the server itself (npm forwards it to its script, whose shell
// `exec`s node: package.json), or the server would be left running without its parent.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { nodeVersionProblem } from "./node-version.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// Before building: on an older Node the build and the server fail with errors that do not say why.
const { engines } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const tooOld = nodeVersionProblem(engines.node, process.version);
if (tooOld) {
  console.error(tooOld);
  process.exit(1);
}

process.chdir(root);

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (!/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function isStale(output, sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((dir) => existsSync(dir) && newestMtime(dir) > built);
}

function run(script) {
  console.log(`> npm run ${script}`);
  const result = spawnSync("npm", ["run", "--silent", script], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (isStale("dist/web/index.html", ["src/web", "src/shared"])) run("build:web");
if (isStale("dist/server/main.js", ["src/server", "src/shared"])) run("build:server");

await import(pathToFileURL(path.join(root, "dist/server/main.js")).href);
