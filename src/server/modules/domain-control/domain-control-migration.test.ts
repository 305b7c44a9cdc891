import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openPglite, openPostgres, rowsOf } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { createScratchDatabase, MIGRATIONS_FOLDER } from "../../testing/database";

/**
 * Migration 0008 on organizations set up before proof was required: the state is built at 0007
 * with plain SQL (the schema of today has columns 0007 lacks), then 0008 runs.
 */

async function openEmptyDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return openPglite(null);
  const scratch = await createScratchDatabase(serverUrl, "buddy_test");
  const database = await openPostgres(scratch.url);
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}

/** The committed migrations up to (not including) `tag`, in a folder of their own. */
function migrationsBefore(tag: string): { folder: string; remove(): void } {
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

type Legacy = {
  domain: string;
  platform?: boolean;
  members: { email: string; verified?: boolean; role?: "admin" | "member"; status?: "active" | "pending" }[];
};

const LEGACY: Legacy[] = [
  { domain: "acme-legacy.test", members: [{ email: "ceo@acme-legacy.test" }] },
  { domain: "subproven.test", members: [{ email: "ops@mail.subproven.test" }] },
  {
    domain: "second-admin.test",
    members: [{ email: "founder@gmail.com" }, { email: "cto@second-admin.test" }],
  },
  { domain: "unverified.test", members: [{ email: "boss@unverified.test", verified: false }] },
  { domain: "squatted.test", members: [{ email: "someone@gmail.com" }] },
  {
    domain: "member-only.test",
    members: [
      { email: "squatter@outlook.com" },
      { email: "staff@member-only.test", role: "member" },
      { email: "waiting@member-only.test", status: "pending" },
    ],
  },
  { domain: "acme-look.test", members: [{ email: "ceo@evilacme-look.test" }] },
  { domain: "acme-look2.test", members: [{ email: "ceo@acme-look2.test.evil.test" }] },
  { domain: "gmail.com", members: [{ email: "owner@gmail.com" }] },
  { domain: "catalog-only.test", platform: false, members: [] },
];

let database: Database;
let before: { folder: string; remove(): void };

beforeAll(async () => {
  database = await openEmptyDatabase();
  before = migrationsBefore("0008_domain_control");
  await runMigrations(database, before.folder);
  const { db } = database;
  for (const [index, org] of LEGACY.entries()) {
    const orgId = `org-${index}`;
    await db.execute(sql`
      insert into organizations (id, name, domain, website, is_platform_user)
      values (${orgId}, ${org.domain}, ${org.domain}, ${`https://${org.domain}`}, ${org.platform ?? true})`);
    for (const [n, member] of org.members.entries()) {
      const userId = `user-${index}-${n}`;
      await db.execute(sql`
        insert into users (id, email, password_hash, email_verified_at)
        values (${userId}, ${member.email}, 'x', ${member.verified === false ? null : new Date().toISOString()})`);
      await db.execute(sql`
        insert into memberships (id, organization_id, user_id, role, status)
        values (${`m-${index}-${n}`}, ${orgId}, ${userId}, ${member.role ?? "admin"},
                ${member.status ?? "active"})`);
    }
  }
  await runMigrations(database, MIGRATIONS_FOLDER);
});
afterAll(async () => {
  await database?.close();
  before?.remove();
});

async function migrated() {
  const rows = rowsOf<{
    domain: string;
    is_platform_user: boolean;
    domain_verified_at: unknown;
    domain_verification_method: string | null;
    verification_token: string;
  }>(
    await database.db.execute(
      sql`select domain, is_platform_user, domain_verified_at, domain_verification_method, verification_token from organizations`,
    ),
  );
  return new Map(rows.map((row) => [row.domain, row]));
}

describe("migration 0008 on organizations set up before proof was required", () => {
  it("keeps an organization proven when an active, verified admin's address is at its domain", async () => {
    const rows = await migrated();
    for (const domain of ["acme-legacy.test", "subproven.test", "second-admin.test"]) {
      expect(rows.get(domain), domain).toMatchObject({
        is_platform_user: true,
        domain_verification_method: "email",
      });
      expect(rows.get(domain)?.domain_verified_at, domain).not.toBeNull();
    }
  });

  it("takes the badge, ads and approvals from every other one until an admin proves its domain", async () => {
    const rows = await migrated();
    for (const domain of [
      "unverified.test",
      "squatted.test",
      "member-only.test",
      "acme-look.test",
      "acme-look2.test",
      "gmail.com",
    ]) {
      expect(rows.get(domain), domain).toMatchObject({
        is_platform_user: false,
        domain_verified_at: null,
        domain_verification_method: null,
      });
    }
    expect(rows.get("catalog-only.test")).toMatchObject({
      is_platform_user: false,
      domain_verified_at: null,
    });
  });

  it("gives every organization a token of its own", async () => {
    const tokens = [...(await migrated()).values()].map((row) => row.verification_token);
    expect(tokens.every((token) => typeof token === "string" && token.length >= 20)).toBe(true);
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});
