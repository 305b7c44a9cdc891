import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { EXPORT_MESSAGES } from "@shared/exports";
import { errorBodySchema } from "@shared/http";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { authHeader, createApiKey, createTestApp, signUpVerified, type TestApp } from "../../testing/app";
import { clickThrough, createSharedAds } from "../../testing/buddies";

/**
 * Issue 34: the CSV exports' date parameters, fuzzed. Whatever `from` and `to` hold, the answer is
 * never a 5xx, and every answer that is not the file is a plain JSON `{message}`: no attachment
 * name, no CSV type, no `content-encoding` that the body does not have, whether or not the client
 * accepts Brotli. A failure of the database before the file starts is such an answer too.
 */
let t: TestApp;
let member: Record<string, string>;
let apiKey: string;

beforeAll(async () => {
  t = await createTestApp();
  const shared = await createSharedAds(
    t,
    ["fuzzexportsharer", "fuzzexportadvertiser"],
    [{ name: "Try it", description: "The best tool.", ctaText: "Start" }],
  );
  await clickThrough(t, shared.trackedUrls[0] as string, "192.0.2.90");
  member = shared.advertiser.headers;
  apiKey = (await createApiKey(t, shared.advertiser)).key;
});
afterAll(() => t.close());

const KINDS = ["conversions", "clicks"] as const;
const VALID = "2026-01-15";
const ENCODINGS: Record<string, Record<string, string>> = {
  "no accept-encoding": {},
  "accept-encoding: br": { "accept-encoding": "br" },
  "accept-encoding: br, gzip": { "accept-encoding": "br, gzip" },
};

/** Hostile values of one date parameter, written raw into the query, and the message they earn. */
const YEAR = "year";
const DATE = "date";
const HOSTILE: [name: string, raw: string, refusal: typeof YEAR | typeof DATE][] = [
  ["year 0000", "0000-01-01", YEAR],
  ["year 0001", "0001-01-01", YEAR],
  ["year 1999", "1999-12-31", YEAR],
  ["year 2101", "2101-01-01", YEAR],
  ["year 9999", "9999-12-31", YEAR],
  ["year 10000", "10000-01-01", DATE],
  ["year +010000, as JavaScript writes it", "%2B010000-01-01", DATE],
  ["a negative year", "-2024-01-01", DATE],
  ["a negative year 0001", "-0001-01-01", DATE],
  ["30 February", "2024-02-30", DATE],
  ["29 February of a common year", "2023-02-29", DATE],
  ["month 13", "2024-13-01", DATE],
  ["month 00", "2024-00-10", DATE],
  ["day 00", "2024-01-00", DATE],
  ["no leading zeros", "2024-1-1", DATE],
  ["no dashes", "20240101", DATE],
  ["a time after the date", "2024-01-01T00%3A00%3A00Z", DATE],
  ["a space before", "%202024-01-01", DATE],
  ["a newline after", "2024-01-01%0A", DATE],
  ["Arabic-Indic digits", encodeURIComponent("٢٠٢٤-٠١-٠١"), DATE],
  ["an empty value", "", DATE],
  ["10,000 characters", "9".repeat(10_000), DATE],
  ["a date and 10,000 characters", `2024-01-01${"x".repeat(10_000)}`, DATE],
  ["NUL", "%00", DATE],
  ["a NUL inside a date", "2024-01%0001", DATE],
  ["a NUL after a date", "2024-01-01%00", DATE],
  ["a lone surrogate", "%ED%A0%80", DATE],
  ["a lone surrogate after a date", "2024-01-01%ED%A0%80", DATE],
  ["a broken %-escape", "2024-01-0%", DATE],
  ["a SQL quote", "2024-01-01'--", DATE],
];

/** CONTRACT §2 error, with the headers of a JSON body and nothing left of the CSV it is not. */
function problemWith(response: LightMyRequestResponse): string | undefined {
  const headers = response.headers;
  if (headers["content-type"] !== "application/json; charset=utf-8")
    return `content-type ${headers["content-type"]}`;
  if (headers["content-disposition"] !== undefined)
    return `content-disposition ${headers["content-disposition"]}`;
  const encoding = headers["content-encoding"];
  let text: string;
  try {
    // An encoding is announced only for a body that has it.
    if (encoding === undefined) text = response.rawPayload.toString("utf8");
    else if (encoding === "br") text = brotliDecompressSync(response.rawPayload).toString("utf8");
    else if (encoding === "gzip") text = gunzipSync(response.rawPayload).toString("utf8");
    else return `content-encoding ${encoding}`;
  } catch {
    return `content-encoding ${encoding} on a body that is not`;
  }
  try {
    if (!errorBodySchema.strict().safeParse(JSON.parse(text)).success) return `not {message}: ${text}`;
  } catch {
    return `not JSON: ${text.slice(0, 120)}`;
  }
  return undefined;
}

const dialect = new PgDialect();
/** The export's page statements (export-rows.ts) fail with `failure` until restored. */
function failExportPages(failure: () => Error) {
  const execute = t.app.db.execute.bind(t.app.db);
  let failed = 0;
  const spy = vi.spyOn(t.app.db, "execute").mockImplementation(((query: SQL) => {
    if (!/\bfrom (click_events e|conversions c)\b/.test(dialect.sqlToQuery(query).sql)) return execute(query);
    failed++;
    return Promise.reject(failure());
  }) as typeof t.app.db.execute);
  return { failed: () => failed, mockRestore: () => spy.mockRestore() };
}

const exportAt = (kind: string, query: string, headers: Record<string, string>) =>
  t.app.inject({ url: `/api/exports/${kind}.csv?${query}`, headers });

describe("the exports' dates, fuzzed", () => {
  it("refuses every hostile from and to with 400 {message} naming the rule, in plain JSON", async () => {
    const problems: string[] = [];
    let requests = 0;
    for (const kind of KINDS) {
      for (const field of ["from", "to"] as const) {
        for (const [name, raw, refusal] of HOSTILE) {
          const query = field === "from" ? `from=${raw}&to=${VALID}` : `from=${VALID}&to=${raw}`;
          const message = refusal === YEAR ? EXPORT_MESSAGES.year(field) : EXPORT_MESSAGES.date(field);
          for (const [encodingName, encoding] of Object.entries(ENCODINGS)) {
            for (const credentials of [member, { "x-api-key": apiKey }]) {
              const response = await exportAt(kind, query, { ...credentials, ...encoding });
              requests++;
              const where = `${kind} ${field} ← ${name} (${encodingName})`;
              const problem =
                (response.statusCode !== 400 ? `answered ${response.statusCode}` : undefined) ??
                problemWith(response) ??
                (response.json().message !== message ? `said "${response.json().message}"` : undefined);
              if (problem) problems.push(`${where}: ${problem}`);
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(requests).toBe(KINDS.length * 2 * HOSTILE.length * 3 * 2);
  });

  it.each([
    ["two froms", `from=a&from=b&to=${VALID}`, EXPORT_MESSAGES.date("from")],
    ["two valid froms", `from=${VALID}&from=${VALID}&to=${VALID}`, EXPORT_MESSAGES.date("from")],
    ["two tos", `from=${VALID}&to=a&to=b`, EXPORT_MESSAGES.date("to")],
    ["from[] notation", `from[]=${VALID}&to=${VALID}`, EXPORT_MESSAGES.date("from")],
    ["no parameters", "", EXPORT_MESSAGES.date("from")],
    ["only to", `to=${VALID}`, EXPORT_MESSAGES.date("from")],
    ["from after to, both in range", "from=2100-12-31&to=2000-01-01", EXPORT_MESSAGES.order],
    ["a span of 2000 to 2100", "from=2000-01-01&to=2100-12-31", EXPORT_MESSAGES.span],
    ["a span ending in year 2101", "from=2100-06-01&to=2101-01-31", EXPORT_MESSAGES.year("to")],
  ])("refuses %s with 400 {message} in plain JSON", async (_name, query, message) => {
    for (const kind of KINDS) {
      for (const encoding of Object.values(ENCODINGS)) {
        const response = await exportAt(kind, query, { ...member, ...encoding });
        expect(problemWith(response)).toBeUndefined();
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ message });
      }
    }
  });

  it("exports the first and the last day of the years it accepts", async () => {
    for (const query of ["from=2000-01-01&to=2000-01-01", "from=2100-12-31&to=2100-12-31"]) {
      for (const kind of KINDS) {
        const response = await exportAt(kind, query, member);
        expect(response.statusCode, `${kind} ${query}`).toBe(200);
        expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
        expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="/);
        expect(response.body.split("\r\n").filter(Boolean)).toHaveLength(1);
      }
    }
  });

  it("answers 401, 403 and 404 in plain JSON, whether or not the client accepts br", async () => {
    const { token } = await signUpVerified(t, "no-company@fuzzexport.example");
    const cases: [string, number, string, Record<string, string>][] = [
      ["no credentials", 401, `/api/exports/clicks.csv?from=${VALID}&to=${VALID}`, {}],
      [
        "an unknown key",
        401,
        `/api/exports/clicks.csv?from=${VALID}&to=${VALID}`,
        { "x-api-key": "bk_live_x" },
      ],
      ["a bad token", 401, `/api/exports/conversions.csv?from=${VALID}&to=${VALID}`, authHeader("nope")],
      [
        "a user with no company yet",
        403,
        `/api/exports/conversions.csv?from=${VALID}&to=${VALID}`,
        authHeader(token),
      ],
      ["an unknown export", 404, `/api/exports/leads.csv?from=${VALID}&to=${VALID}`, member],
      ["a path under an export", 404, `/api/exports/clicks.csv/more?from=${VALID}&to=${VALID}`, member],
    ];
    for (const [name, status, url, headers] of cases) {
      for (const encoding of Object.values(ENCODINGS)) {
        const response = await t.app.inject({ url, headers: { ...headers, ...encoding } });
        expect(response.statusCode, name).toBe(status);
        expect(problemWith(response), name).toBeUndefined();
      }
    }
  });

  it("answers a database failure before the file starts with a plain JSON 503 or 500", async () => {
    const failures: [string, () => Error, number][] = [
      ["the database away", () => new Error("Connection terminated unexpectedly"), 503],
      ["a statement failing", () => new Error("something else went wrong"), 500],
    ];
    for (const [name, failure, status] of failures) {
      for (const kind of KINDS) {
        for (const encoding of Object.values(ENCODINGS)) {
          // Only the export's own pages fail: the outbox and the visitor salts query in the background.
          const execute = failExportPages(failure);
          try {
            const response = await exportAt(kind, `from=${VALID}&to=${VALID}`, { ...member, ...encoding });
            expect(response.statusCode, `${name} ${kind}`).toBe(status);
            expect(problemWith(response), `${name} ${kind}`).toBeUndefined();
            if (status === 503) expect(response.headers["retry-after"]).toBe("1");
            // The export's own first page met the failure, and nothing after it was read.
            expect(execute.failed()).toBe(1);
          } finally {
            execute.mockRestore();
          }
        }
      }
    }
    // And the export works again afterwards.
    expect((await exportAt("clicks", `from=${VALID}&to=${VALID}`, member)).statusCode).toBe(200);
  });
});
