import { createHash } from "node:crypto";
import { parseDomainList } from "@shared/overlap-domains";
import { hashToGroup } from "@shared/overlap-protocol";
import { sql } from "drizzle-orm";
import sodium from "libsodium-wrappers-sumo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/client";
import { createOrganization, createTestApp, relate, type TestApp } from "../../testing/app";
import { declarePopulation, overlapCall, runOverlap } from "../../testing/overlap-client";

/**
 * Issue 39's privacy test: 1,000 known domains go through a whole run; then the database, dumped
 * table by table, and every log line are searched for each domain as written, lower-cased and
 * normalised, for its MD5, SHA-1 and SHA-256 (hex, base64, base64url), and for H(domain) on
 * ristretto255 without a scalar. None may be found, during the run or after it.
 */
const logLines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  await sodium.ready;
  t = await createTestApp({
    logger: { level: "trace", stream: { write: (line: string) => logLines.push(line) } },
  });
});
afterAll(async () => {
  await t?.close();
});

/** As a CRM export writes them: URLs with capitals and paths, addresses, bare domains. */
function seededEntries(): string[] {
  return Array.from({ length: 1_000 }, (_, i) => {
    const name = `Privacy${i}Corp`;
    if (i % 3 === 0) return `https://www.${name}.co.uk/about`;
    if (i % 3 === 1) return `sales@${name}.com`;
    return `${name}.io`;
  });
}

/** Every table's rows as JSON text (bytea as hex), the whole database as one string. */
async function dumpDatabase(): Promise<string> {
  const tables = rowsOf<{ table_name: string }>(
    await t.database.db.execute(
      sql`select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    ),
  );
  const parts: string[] = [];
  for (const { table_name: table } of tables) {
    const rows = rowsOf<{ row: string }>(
      await t.database.db.execute(sql`select row_to_json(t)::text as row from ${sql.identifier(table)} t`),
    );
    for (const { row } of rows) parts.push(row);
  }
  return parts.join("\n");
}

/** Positions of any needle in the text: one pass per needle length, a set lookup per position. */
function findNeedles(text: string, needles: Map<string, string>): string[] {
  const byLength = new Map<number, Set<string>>();
  for (const needle of needles.keys()) {
    const set = byLength.get(needle.length) ?? new Set<string>();
    set.add(needle);
    byLength.set(needle.length, set);
  }
  const found = new Set<string>();
  for (const [length, set] of byLength) {
    for (let i = 0; i + length <= text.length; i++) {
      const piece = text.slice(i, i + length);
      if (set.has(piece)) found.add(`${needles.get(piece)}: ${piece}`);
    }
  }
  return [...found];
}

function encodings(bytes: Buffer): string[] {
  return [bytes.toString("hex"), bytes.toString("base64"), bytes.toString("base64url")];
}

/** What must never appear, each with what it stands for. */
function forbidden(entries: string[]): Map<string, string> {
  const needles = new Map<string, string>();
  for (const entry of entries) {
    const normalised = parseDomainList(entry).domains[0] as string;
    for (const form of new Set([entry, entry.toLowerCase(), normalised])) {
      needles.set(form, `plaintext of ${normalised}`);
      for (const algorithm of ["md5", "sha1", "sha256"]) {
        for (const encoded of encodings(createHash(algorithm).update(form).digest())) {
          needles.set(encoded, `${algorithm} of ${form}`);
        }
      }
    }
    for (const encoded of encodings(Buffer.from(hashToGroup(sodium, normalised)))) {
      needles.set(encoded, `H(${normalised})`);
    }
  }
  return needles;
}

describe("what Buddy holds after account overlap runs", () => {
  it("holds no seeded domain in any form, in the database or the logs, during a run or after it", async () => {
    const entries = seededEntries();
    const aDomains = parseDomainList(entries.join("\n")).domains;
    expect(aDomains).toHaveLength(1_000);
    // B shares 250 of them, and has 550 of its own (equally secret).
    const bEntries = [...entries.slice(0, 250), ...Array.from({ length: 550 }, (_, i) => `Other${i}Firm.de`)];
    const bDomains = parseDomainList(bEntries.join("\n")).domains;

    const a = await createOrganization(t, "privacy-a");
    const b = await createOrganization(t, "privacy-b");
    await relate(t, a, b.organizationId, "complement");
    for (const org of [a, b]) {
      await overlapCall(
        t,
        org,
        "POST",
        "/api/webhooks",
        {
          url: "https://hooks.privacy.example/buddy",
          events: ["overlap.completed"],
        },
        201,
      );
    }
    await declarePopulation(t, a, "customers", aDomains);
    await declarePopulation(t, b, "customers", bDomains);

    const needles = forbidden([...entries, ...bEntries]);
    let storedPoint = "";
    const result = await runOverlap(
      t,
      sodium,
      { ...a, domains: aDomains },
      { ...b, domains: bDomains },
      {
        afterAnswer: async ({ answeredPoints }) => {
          const duringRun = await dumpDatabase();
          // The search finds what is there: B's blinded points are stored (as hex) until the run ends,
          // and the organization's own domain is a plain field.
          storedPoint = Buffer.from(answeredPoints[0] as string, "base64url").toString("hex");
          expect(findNeedles(duringRun, new Map([[storedPoint, "a blinded point"]]))).toHaveLength(1);
          expect(findNeedles(duringRun, new Map([[a.domain, "the organization's own domain"]]))).toHaveLength(
            1,
          );
          expect(findNeedles(duringRun, needles)).toEqual([]);
        },
      },
    );
    expect(result.forA.count).toBe(250);
    expect(result.forB.count).toBe(250);
    await t.app.outbox.drain();

    const afterRun = await dumpDatabase();
    expect(findNeedles(afterRun, new Map([[storedPoint, "a blinded point"]]))).toEqual([]);
    expect(findNeedles(afterRun, needles)).toEqual([]);
    const logs = logLines.join("\n");
    expect(logs).toContain(`/api/overlap/runs/${result.forA.id}/complete`);
    expect(findNeedles(logs, needles)).toEqual([]);
  }, 120_000);
});
