import { createHash, randomUUID } from "node:crypto";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { DEFAULT_CLICK_RETENTION_DAYS, partitionedTables } from "../data-lifecycle/partitioned-tables";
import { createPartitions } from "../data-lifecycle/partitions";
import { type Database, openPglite, openPostgres } from "../db/client";
import { runMigrations } from "../db/migrate";

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, "../db/migrations");

/**
 * The migrations folder as it was before `tag`: a copy of its files with a journal that ends
 * before it, for tests (and the bench) of a migration over data written by the ones before.
 */
export function migrationsBefore(tag: string): { folder: string; remove(): void } {
  const folder = mkdtempSync(path.join(tmpdir(), "buddy-migrations-"));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  if (at < 0) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * A PostgreSQL server for tests that need a real one whatever TEST_DATABASE_URL says (cutting its
 * connections, process tests): CI starts it on the default port.
 */
export const POSTGRES_SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/**
 * For `skipIf`: true on PGlite, which lacks `what` (a second connection, a listener connection of
 * its own…), so that the test runs on PostgreSQL only and its skip line says why.
 */
export function pgliteLacks(_what: string): boolean {
  return !process.env.TEST_DATABASE_URL;
}

/**
 * A fresh database per test app: in-memory PGlite by default, or, when TEST_DATABASE_URL names a
 * PostgreSQL server (CI), a new database on it dropped at the end.
 *
 * Migrated, it is a copy of one database migrated once for all (docs/testing.md, "Test
 * databases"): PGlite loaded from a dump of a migrated data directory, or on PostgreSQL a
 * `create database … template` of a migrated template. `migrated: false` gives an empty one, for
 * tests of the migrations themselves.
 */
export async function openTestDatabase(options: { migrated?: boolean } = {}): Promise<Database> {
  const migrated = options.migrated ?? true;
  const database = await openUnprepared(migrated);
  // What an app's start-up makes, for tests that write events without one: a template migrated
  // days ago has fewer partitions ahead, and none back to the retention's edge.
  if (migrated) await prepareDataLifecycle(database);
  return database;
}

async function openUnprepared(migrated: boolean): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    return openPglite(null, migrated ? { loadDataDir: await migratedPgliteDump() } : {});
  }
  const scratch = await createScratchDatabase(serverUrl, "buddy_test", { migrated });
  const database = await openPostgres(scratch.url);
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}

async function prepareDataLifecycle(database: Database): Promise<void> {
  const settings = { clickRetentionDays: DEFAULT_CLICK_RETENTION_DAYS };
  for (const table of partitionedTables(settings)) await createPartitions(database.db, table, new Date());
}

/**
 * A new database on a PostgreSQL server, and how to drop it (tests and benchmarks): empty, or
 * with `migrated: true` a copy of the migrated template.
 */
export async function createScratchDatabase(
  serverUrl: string,
  prefix: string,
  options: { migrated?: boolean } = {},
) {
  const name = `${prefix}_${randomUUID().replaceAll("-", "")}`;
  if (options.migrated) await createFromTemplate(serverUrl, name);
  else await onServer(serverUrl, (client) => client.query(`create database ${name}`));
  return {
    url: databaseUrl(serverUrl, name),
    drop: async () => {
      await onServer(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/** The migrations folder's contents, hashed: a template of other migrations is never reused. */
export function migrationsHash(folder = MIGRATIONS_FOLDER): string {
  const hash = createHash("sha256");
  const files = readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((file) => statSync(path.join(folder, file)).isFile())
    .sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(folder, file)));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * Templates and dumps of other migrations are removed once this old: older than any test run, so
 * a run still copying its own is not pulled from under it, and they do not pile up.
 */
const STALE_TEMPLATE_MS = 15 * 60_000;

// --- PostgreSQL: one migrated template database, copied by `create database … template` ---

const TEMPLATE_PREFIX = "buddy_template_";
/** Serialises building templates among every test run on the server (runMigrations' is 727_001). */
const TEMPLATE_LOCK_KEY = 727_002;

let currentHash: string | undefined;
/** One hash per process: migrations edited during a run do not change its template midway. */
const currentMigrationsHash = () => (currentHash ??= migrationsHash());

/**
 * The migrated template for the current migrations on this server, built if missing (the server
 * project's global set-up calls this once per run; a run finding it built by an earlier one
 * marks it fresh).
 */
export async function prepareTemplateDatabase(serverUrl: string): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${currentMigrationsHash()}`;
  await onServer(serverUrl, async (client) => {
    if (await databaseExists(client, name)) {
      await markBuilt(client, name);
      return;
    }
    await client.query("select pg_advisory_lock($1)", [TEMPLATE_LOCK_KEY]);
    try {
      if (await databaseExists(client, name)) return;
      // Built under another name and renamed once migrated: a template found by its name is
      // complete, and one left half-built by a crashed run is never copied.
      const building = `${name}_building`;
      await client.query(`drop database if exists ${building} with (force)`);
      await client.query(`create database ${building}`);
      const database = await openPostgres(databaseUrl(serverUrl, building));
      try {
        await runMigrations(database, MIGRATIONS_FOLDER);
      } finally {
        // PostgreSQL copies a template only while nobody is connected to it.
        await database.close();
      }
      await markBuilt(client, building);
      await client.query(`alter database ${building} rename to ${name}`);
      await dropStaleTemplates(client, name);
    } finally {
      await client.query("select pg_advisory_unlock($1)", [TEMPLATE_LOCK_KEY]);
    }
  });
  return name;
}

/** The template's comment says when it was built or last found by a run's set-up. */
const markBuilt = (client: pg.Client, name: string) =>
  client.query(`comment on database ${name} is '${new Date().toISOString()}'`);

/** Other migrations' templates, built or last used (their comment says when) long enough ago. */
async function dropStaleTemplates(client: pg.Client, current: string) {
  const { rows } = await client.query<{ datname: string; built: string | null }>(
    `select datname, shobj_description(oid, 'pg_database') as built from pg_database
      where datname like 'buddy\\_template\\_%' and datname <> $1`,
    [current],
  );
  for (const { datname, built } of rows) {
    const age = Date.now() - Date.parse(built ?? "");
    if (age < STALE_TEMPLATE_MS) continue;
    // Without force: a run copying it right now keeps it, and it goes next time.
    await client.query(`drop database if exists "${datname}"`).catch(() => {});
  }
}

async function createFromTemplate(serverUrl: string, name: string) {
  let template = `${TEMPLATE_PREFIX}${currentMigrationsHash()}`;
  for (let attempt = 1; ; attempt++) {
    try {
      await onServer(serverUrl, (client) => client.query(`create database ${name} template ${template}`));
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 20) throw error;
      if (code === "3D000") {
        // Not built yet (no global set-up: a script, a benchmark), or dropped since by a run of
        // other migrations.
        template = await prepareTemplateDatabase(serverUrl);
      } else if (code === "55006") {
        // "source database is being accessed by other users": someone's connection to it.
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      } else {
        throw error;
      }
    }
  }
}

async function databaseExists(client: pg.Client, name: string) {
  const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
  return rowCount === 1;
}

async function onServer<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(serverUrl: string, name: string) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

// --- PGlite: a dump of a migrated data directory, loaded into each new instance ---

const PGLITE_DUMPS = path.join(tmpdir(), "buddy-test-pglite");

/** The dump's file: keyed by the migrations and by PGlite's version, whose data format it is. */
function pgliteDumpPath() {
  const packageJson = path.resolve(
    import.meta.dirname,
    "../../../node_modules/@electric-sql/pglite/package.json",
  );
  let version = "unknown";
  try {
    version = (JSON.parse(readFileSync(packageJson, "utf8")) as { version: string }).version;
  } catch {}
  return path.join(PGLITE_DUMPS, `pglite-${version}-${currentMigrationsHash()}.tar`);
}

/**
 * The dump for the current migrations, made if missing (the server project's global set-up calls
 * this once per run; a run finding it made by an earlier one marks it fresh).
 */
export async function preparePgliteDump(): Promise<void> {
  const file = pgliteDumpPath();
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOENT") throw error;
    await buildPgliteDump(file);
  }
}

/** Migrates an in-memory PGlite and writes its data directory's dump where every test process finds it. */
async function buildPgliteDump(file: string): Promise<File> {
  const database = await openPglite(null);
  let dump: Blob;
  try {
    await runMigrations(database, MIGRATIONS_FOLDER);
    // Uncompressed: each load would otherwise gunzip it again, for 40 MB of disk saved.
    dump = await (database.pglite as NonNullable<Database["pglite"]>).dumpDataDir("none");
  } finally {
    await database.close();
  }
  const bytes = new Uint8Array(await dump.arrayBuffer());
  mkdirSync(PGLITE_DUMPS, { recursive: true });
  // Written aside, then renamed: another process reads the whole dump or none.
  const partial = `${file}.${process.pid}.${randomUUID()}`;
  writeFileSync(partial, bytes);
  renameSync(partial, file);
  for (const other of readdirSync(PGLITE_DUMPS)) {
    const otherPath = path.join(PGLITE_DUMPS, other);
    if (otherPath === file) continue;
    try {
      if (Date.now() - statSync(otherPath).mtimeMs > STALE_TEMPLATE_MS) rmSync(otherPath, { force: true });
    } catch {}
  }
  return asDump(bytes);
}

let pgliteDump: Promise<File> | undefined;

/** The migrated dump, read once per process: from the global set-up's file, or made here. */
function migratedPgliteDump(): Promise<File> {
  pgliteDump ??= (async () => {
    try {
      return asDump(readFileSync(pgliteDumpPath()));
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") throw error;
      return buildPgliteDump(pgliteDumpPath());
    }
  })();
  pgliteDump.catch(() => {
    pgliteDump = undefined;
  });
  return pgliteDump;
}

const asDump = (bytes: Uint8Array<ArrayBuffer>) =>
  new File([bytes], "pgdata.tar", { type: "application/x-tar" });
