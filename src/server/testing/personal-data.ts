import { sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../db/client";

/**
 * Where each of `needles` still appears in the database: every table of the schema (partitions
 * included), each row read whole as text, as a dump would show it. Answers "table: needle" for
 * every table that holds one (issue 38's search for personal data left behind).
 */
export async function findInDatabase(db: DbOrTx, needles: readonly string[]): Promise<string[]> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' order by 1`),
  );
  const found: string[] = [];
  for (const { name } of tables) {
    for (const needle of needles) {
      const rows = rowsOf<{ hits: number }>(
        await db.execute(
          sql`select count(*)::int as hits from ${sql.identifier(name)} t where strpos(lower(t::text), lower(${needle})) > 0`,
        ),
      );
      if ((rows[0]?.hits ?? 0) > 0) found.push(`${name}: ${needle}`);
    }
  }
  return found;
}
