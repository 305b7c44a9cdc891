import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUnlistenedNotifications } from "../../db/change-notifications";
import { type Database, rowsOf } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { MIGRATIONS_FOLDER, migrationsBefore, openTestDatabase } from "../../testing/database";
import { reviewLegacyEmailProofs } from "./legacy-proof-review";

/**
 * Migrations 0008 and 0010 on organizations set up before proof was required, and on e-mail proofs
 * made under the looser rule: the state is built with plain SQL at the migration before (the
 * schema of today lacks columns they had), then every migration runs, then the start-up review
 * that applies the runtime's e-mail rule (legacy-proof-review.ts).
 */

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
  // Free mail the runtime's list knows and a hand-written SQL list would not.
  { domain: "fastmail.fm", members: [{ email: "boss@fastmail.fm" }] },
  // A public suffix is nobody's, whatever the address.
  { domain: "co.uk", members: [{ email: "admin@co.uk" }] },
  { domain: "catalog-only.test", platform: false, members: [] },
];

async function insertLegacy(db: Database["db"], orgs: Legacy[], prefix: string, proven?: string) {
  for (const [index, org] of orgs.entries()) {
    const orgId = `${prefix}org-${index}`;
    // From 0008 on, organizations have a proof and a token of their own.
    await db.execute(
      proven
        ? sql`insert into organizations (id, name, domain, website, is_platform_user, domain_verified_at,
                domain_verification_method, verification_token)
              values (${orgId}, ${org.domain}, ${org.domain}, ${`https://${org.domain}`}, true, now(), ${proven},
                ${`token-${orgId}-0123456789`})`
        : sql`insert into organizations (id, name, domain, website, is_platform_user)
              values (${orgId}, ${org.domain}, ${org.domain}, ${`https://${org.domain}`}, ${org.platform ?? true})`,
    );
    for (const [n, member] of org.members.entries()) {
      const userId = `${prefix}user-${index}-${n}`;
      await db.execute(sql`
        insert into users (id, email, password_hash, email_verified_at)
        values (${userId}, ${member.email}, 'x', ${member.verified === false ? null : new Date().toISOString()})`);
      await db.execute(sql`
        insert into memberships (id, organization_id, user_id, role, status)
        values (${`${prefix}m-${index}-${n}`}, ${orgId}, ${userId}, ${member.role ?? "admin"},
                ${member.status ?? "active"})`);
    }
  }
}

/** Migrates a fresh database up to `tag`, lets `seed` write legacy rows, then migrates and reviews. */
async function migrateFrom(tag: string, seed: (db: Database["db"]) => Promise<void>) {
  const database = await openTestDatabase({ migrated: false });
  const before = migrationsBefore(tag);
  try {
    await runMigrations(database, before.folder);
    await seed(database.db);
    await runMigrations(database, MIGRATIONS_FOLDER);
    await reviewLegacyEmailProofs(database.db, createUnlistenedNotifications());
  } finally {
    before.remove();
  }
  return database;
}

async function organizationsOf(database: Database) {
  const rows = rowsOf<{
    domain: string;
    domain_verified_at: unknown;
    domain_verification_method: string | null;
    verification_token: string;
  }>(
    await database.db.execute(
      sql`select domain, domain_verified_at, domain_verification_method, verification_token from organizations`,
    ),
  );
  return new Map(rows.map((row) => [row.domain, row]));
}

let legacy: Database;
beforeAll(async () => {
  legacy = await migrateFrom("0008_domain_control", (db) => insertLegacy(db, LEGACY, ""));
});
afterAll(() => legacy?.close());

describe("organizations set up before proof was required, through migrations 0008 and 0010", () => {
  it("keeps an organization proven when an active, verified admin's address is at its very domain", async () => {
    const rows = await organizationsOf(legacy);
    for (const domain of ["acme-legacy.test", "second-admin.test"]) {
      expect(rows.get(domain), domain).toMatchObject({ domain_verification_method: "email" });
      expect(rows.get(domain)?.domain_verified_at, domain).not.toBeNull();
    }
  });

  it("proves nothing by a subdomain mailbox, free mail, a public suffix or a look-alike", async () => {
    const rows = await organizationsOf(legacy);
    for (const domain of [
      "subproven.test",
      "unverified.test",
      "squatted.test",
      "member-only.test",
      "acme-look.test",
      "acme-look2.test",
      "gmail.com",
      "fastmail.fm",
      "co.uk",
      "catalog-only.test",
    ]) {
      expect(rows.get(domain), domain).toMatchObject({
        domain_verified_at: null,
        domain_verification_method: null,
      });
    }
  });

  it("gives every organization a token of its own and leaves nothing queued", async () => {
    const tokens = [...(await organizationsOf(legacy)).values()].map((row) => row.verification_token);
    expect(tokens.every((token) => typeof token === "string" && token.length >= 20)).toBe(true);
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(rowsOf(await legacy.db.execute(sql`select * from domain_proof_reviews`))).toEqual([]);
  });
});

describe("e-mail proofs made under the looser rule, through migration 0010", () => {
  let database: Database;
  beforeAll(async () => {
    database = await migrateFrom("0010_proof_held_by_holders", async (db) => {
      await insertLegacy(
        db,
        [
          { domain: "still-mine.test", members: [{ email: "ceo@still-mine.test" }] },
          { domain: "zendesk-like.test", members: [{ email: "support@trial.zendesk-like.test" }] },
          { domain: "freemail-proven.test", members: [{ email: "owner@fastmail.fm" }] },
        ],
        "email-",
        "email",
      );
      await insertLegacy(
        db,
        [{ domain: "tagged.test", members: [{ email: "x@gmail.com" }] }],
        "tag-",
        "meta_tag",
      );
    });
  });
  afterAll(() => database?.close());

  it("keeps the proofs the runtime's rule still grants, and withdraws the others", async () => {
    const rows = await organizationsOf(database);
    expect(rows.get("still-mine.test")).toMatchObject({ domain_verification_method: "email" });
    expect(rows.get("tagged.test")).toMatchObject({ domain_verification_method: "meta_tag" });
    for (const domain of ["zendesk-like.test", "freemail-proven.test"]) {
      expect(rows.get(domain), domain).toMatchObject({
        domain_verified_at: null,
        domain_verification_method: null,
      });
    }
  });
});
