import { readMigrationFiles } from "drizzle-orm/migrator";
import type { Database } from "./client";

const MIGRATION_LOCK_KEY = 727_001;

/**
 * Applies the committed SQL migrations. Under an advisory lock on a shared PostgreSQL server,
 * so instances starting together do not race.
 */
export async function runMigrations(database: Database, migrationsFolder: string): Promise<void> {
  // Read up-front so a missing folder fails before any lock is taken.
  readMigrationFiles({ migrationsFolder });
  await database.withLock(MIGRATION_LOCK_KEY, async (db) => {
    if (database.kind === "pglite") {
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      // biome-ignore lint/suspicious/noExplicitAny: both migrators accept the shared dialect
      await migrate(db as any, { migrationsFolder });
    } else {
      const { migrate } = await import("drizzle-orm/node-postgres/migrator");
      // biome-ignore lint/suspicious/noExplicitAny: both migrators accept the shared dialect
      await migrate(db as any, { migrationsFolder });
    }
  });
}
