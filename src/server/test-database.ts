import path from "node:path";
import pg from "pg";
import { type Database, openPglite, openPostgres } from "./db/client";
import { runMigrations } from "./db/migrate";

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, "db/migrations");

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
  const name = `buddy_test_${crypto.randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString());
  await runMigrations(database, MIGRATIONS_FOLDER);
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
