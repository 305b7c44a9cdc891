import path from "node:path";
import pg from "pg";
import { type Database, openPglite, openPostgres } from "../db/client";
import { runMigrations } from "../db/migrate";

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, "../db/migrations");

/**
 * A PostgreSQL server for tests that need a real one whatever TEST_DATABASE_URL says (cutting its
 * connections, process tests): CI starts it on the default port.
 */
export const POSTGRES_SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/**
 * A fresh, migrated database per test app: in-memory PGlite by default, or, when
 * TEST_DATABASE_URL names a PostgreSQL server (CI), a new database on it dropped at the end.
 */
export async function openTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await openPglite(null);
    await runMigrations(database, MIGRATIONS_FOLDER);
    return database;
  }
  const scratch = await createScratchDatabase(serverUrl, "buddy_test");
  const database = await openPostgres(scratch.url);
  await runMigrations(database, MIGRATIONS_FOLDER);
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}

/** A new, empty database on a PostgreSQL server, and how to drop it (tests and benchmarks). */
export async function createScratchDatabase(serverUrl: string, prefix: string) {
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}
