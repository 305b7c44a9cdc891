// Writes the OpenAPI document Buddy publishes at /api/openapi.json to a file, with no network
// server: the app over an empty in-memory database, asked through inject. `npm run lint:openapi`
// lints what it writes (redocly.yaml).
//
//   tsx --tsconfig tsconfig.node.json scripts/write-openapi.ts <file> [--public-url=<origin>]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildApp } from "../src/server/app";
import { loadConfig } from "../src/server/config";
import { openPglite } from "../src/server/db/client";
import { runMigrations } from "../src/server/db/migrate";
import { generateToken } from "../src/server/lib/tokens";

/**
 * The document names PUBLIC_URL as its server. A deployment's is its own; this one stands for it,
 * under a name reserved never to resolve (RFC 6761), so the file can point at no real host.
 */
const PLACEHOLDER_PUBLIC_URL = "https://buddy.invalid";
const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, "../src/server/db/migrations");

async function writeOpenApiDocument(file: string, publicUrl = PLACEHOLDER_PUBLIC_URL) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "buddy-openapi-"));
  const database = await openPglite(null);
  try {
    await runMigrations(database, MIGRATIONS_FOLDER);
    const config = loadConfig({
      PUBLIC_URL: publicUrl,
      APP_SECRET: generateToken(32),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    });
    const app = await buildApp({
      config,
      db: database.db,
      tryLock: database.tryLock,
      migrationsFolder: MIGRATIONS_FOLDER,
      logger: false,
    });
    try {
      await app.ready();
      await app.lifecycle.started;
      const response = await app.inject({ url: "/api/openapi.json" });
      if (response.statusCode !== 200)
        throw new Error(`/api/openapi.json answered ${response.statusCode}: ${response.body}`);
      mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      writeFileSync(file, `${JSON.stringify(response.json(), null, 2)}\n`);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { "public-url": { type: "string" } },
});
const [file] = positionals;
if (!file) {
  console.error("usage: write-openapi.ts <file> [--public-url=<origin>]");
  process.exit(2);
}
await writeOpenApiDocument(file, values["public-url"]);
