import { errorBodySchema } from "@shared/http";
import { sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../db/client";
import { createStripeGateway } from "../modules/billing/billing-gateway";
import { addMember, createApiKey, createTestApp, type TestApp } from "../testing/app";
import { createBuddies } from "../testing/buddies";
import {
  type BaseValues,
  type Expectation,
  type FuzzCase,
  fuzzCases,
  NUL,
  type OpenApiDocument,
  type Operation,
  operationsOf,
} from "../testing/route-fuzz";

/**
 * Issue 15: every route, walked from the OpenAPI document so none can be forgotten, answers
 * hostile input with a 4xx `{message}` — never a 5xx, a stack trace or an error in the log — and
 * stores nothing. Sent as the admin of a real onboarded organization (its API key where the route
 * takes one), every other field at a valid value.
 */

const WEBHOOK_SECRET = "whsec_fuzz";

type LogEntry = { level: number; msg?: string };
const log: LogEntry[] = [];

let t: TestApp;
let buddies: Awaited<ReturnType<typeof createBuddies>>;
let apiKey: { key: string; id: string };
let base: (operation: Operation) => BaseValues;

beforeAll(async () => {
  t = await createTestApp({
    logger: { level: "warn", stream: { write: (line: string) => log.push(JSON.parse(line)) } },
    // Configured, so the webhook judges the signature (400) rather than answering 503.
    env: { STRIPE_SECRET_KEY: "sk_test_fuzz", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
    billingGateway: createStripeGateway({ secretKey: "sk_test_fuzz", webhookSecret: WEBHOOK_SECRET }),
  });
  // A real click on the admin's ad, so the conversion routes reach the click-id proof.
  buddies = await createBuddies(t, ["fuzzer", "fuzzpartner"]);
  const { org: admin, clickId } = buddies;
  const { website, domain } = (
    await t.app.inject({ url: "/api/organization", headers: admin.headers })
  ).json();
  apiKey = await createApiKey(t, admin);
  // Connected, so the organization's Stripe webhook judges the signature rather than the connection.
  await t.app.inject({
    method: "PUT",
    url: "/api/integrations/stripe",
    headers: admin.headers,
    payload: { webhookSecret: "whsec_fuzzSigningSecret0123456789" },
  });
  const endpoint = (
    await t.app.inject({
      method: "POST",
      url: "/api/webhooks",
      headers: admin.headers,
      payload: { url: "https://hooks.fuzz.example/buddy", events: ["conversion.created"] },
    })
  ).json();
  await addMember(t, admin.organizationId);
  const team = (await t.app.inject({ url: "/api/team-members", headers: admin.headers })).json();
  const member = team.find((row: { role: string }) => row.role === "member");

  const paths: Record<string, Record<string, string>> = {
    "/api/relationships/{id}": { id: buddies.relationships.toPartner.id },
    "/api/relationships/{id}/invite": { id: buddies.relationships.toPartner.id },
    "/api/marketing/collateral/{id}": { id: buddies.ads.org.id },
    "/api/api-keys/{id}": { id: apiKey.id },
    "/api/team-members/{id}": { id: member.id },
    "/api/team-members/{id}/approve": { id: member.id },
    "/api/logos/{file}": { file: `${domain}.jpg` },
    "/s/{code}": { code: buddies.shortPath.slice("/s/".length) },
    "/api/marketing/conversion/{clickId}": { clickId },
    "/api/integrations/stripe/webhook/{organizationId}": { organizationId: admin.organizationId },
    "/api/webhooks/{id}": { id: endpoint.id },
    "/api/webhooks/{id}/rotate-secret": { id: endpoint.id },
    "/api/webhooks/{id}/test": { id: endpoint.id },
    "/api/webhooks/{id}/deliveries": { id: endpoint.id },
    // An attempt never made: with the other field hostile, nothing is queued either way.
    "/api/webhooks/{id}/deliveries/{deliveryId}/resend": { id: endpoint.id, deliveryId: "fuzz-attempt" },
    "/api/overlap/populations/{population}": { population: "customers" },
    "/api/overlap/partners/{partnerId}": { partnerId: buddies.partner.organizationId },
    // A run nobody started: whatever passes validation is a 404 and stores nothing.
    "/api/overlap/runs/{id}": { id: "fuzz-run" },
    "/api/overlap/runs/{id}/answer": { id: "fuzz-run" },
    "/api/overlap/runs/{id}/complete": { id: "fuzz-run" },
  };
  // Well-formed points (the relay checks their form; only the sides' libsodium reads them).
  const points = Array.from({ length: 60 }, () =>
    Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url"),
  );
  const ad = {
    name: "Fuzz ad",
    description: "An ad to fuzz.",
    ctaText: "Go",
    ctaUrl: `${website}/go`,
    imageUrl: `${website}/ad.png`,
    status: "active",
  };
  const queries: Record<string, Record<string, string>> = {
    "GET /api/organizations/search": { query: "fuzz" },
    "GET /api/metadata": { domain: "example.com" },
    "GET /api/ecosystem/suggestions": { domain: "example.com" },
    // The pixel takes nothing else: money, event and customer ids alone would answer 400 (CONTRACT §5).
    "GET /api/marketing/conversion/{clickId}": { type: "purchase", org: admin.organizationId },
    "GET /api/metrics/revenue": { partnerId: buddies.partner.organizationId },
    "GET /api/exports/conversions.csv": { from: "2026-01-01", to: "2026-01-31" },
    "GET /api/exports/clicks.csv": { from: "2026-01-01", to: "2026-01-31" },
    // A token nobody signed: whatever else the fuzz sends, it is refused and turns nothing off.
    "GET /api/notifications/unsubscribe": { token: "fuzz.weeklyDigest.token" },
    "POST /api/notifications/unsubscribe": { token: "fuzz.weeklyDigest.token" },
  };
  const bodies: Record<string, Record<string, unknown>> = {
    "POST /api/auth": { mode: "login", email: "nobody@fuzz.example", password: "Wrong-passw0rd!" },
    "POST /api/verify-email": { token: "fuzz-token" },
    "POST /api/forgot-password": { email: "nobody@fuzz.example" },
    "POST /api/reset-password": { token: "fuzz-token", password: "Sup3r-secret!" },
    "PATCH /api/organization": {
      name: "fuzzer",
      website,
      description: "Fuzzer makes software.",
      industry: "Software",
      size: 10,
    },
    "POST /api/relationships": { name: "Fuzz Partner", url: "fuzz-partner.example", type: "complement" },
    "PATCH /api/relationships/{id}": { status: "active", notes: "Good partner" },
    "POST /api/relationships/{id}/invite": { email: "contact@fuzz.example" },
    "POST /api/onboarding": {
      companyName: "Fuzz Co",
      website: "fuzzco.example",
      description: "Fuzz Co makes software for testing.",
      transactionalEmailProvider: "postmark",
      marketingEmailProvider: "mailchimp",
      selectedCompetitors: ["Acme"],
      selectedComplements: ["Acme"],
      suggestions: {},
    },
    "POST /api/marketing/collateral": ad,
    "PATCH /api/marketing/collateral/{id}": ad,
    "POST /api/api-keys": { name: "fuzz" },
    "POST /api/team-members/invite": { email: "invitee@fuzz.example", role: "member" },
    "PATCH /api/team-members/{id}": { role: "member" },
    "POST /api/short-url": { longUrl: buddies.trackedUrl },
    "POST /api/marketing/conversion": {
      clickId,
      customerId: "cus_fuzz",
      type: "signup",
      value: 10,
      currency: "USD",
      eventId: "evt_fuzz_call",
      metadata: { plan: "pro" },
    },
    // An unknown conversion: whatever passes validation is a 404 and records nothing.
    "POST /api/marketing/refunds": { conversionId: "fuzz-conversion", refundId: "fuzz-refund", value: 1 },
    "PUT /api/integrations/stripe": { webhookSecret: "whsec_fuzzSigningSecret0123456789" },
    // Unsigned: whatever the fuzz puts in it, the event is refused by its signature and records nothing.
    "POST /api/integrations/stripe/webhook/{organizationId}": {
      id: "evt_fuzz",
      type: "checkout.session.completed",
      data: { object: { client_reference_id: clickId } },
    },
    "PATCH /api/notification-preferences": { weeklyDigest: true },
    // Not the organization's name: whatever passes validation deletes nothing and mails nothing.
    "POST /api/organization/deletion": { name: "Not the fuzz organization" },
    // A token nobody was given: whatever passes validation is a 400 and deletes nothing.
    "POST /api/deletion/confirm": { token: "fuzz_token_nobody_was_given" },
    "POST /api/webhooks": { url: "https://hooks.fuzz.example/other", events: ["relationship.created"] },
    "PUT /api/overlap/populations/{population}": { domainCount: 60 },
    "PUT /api/overlap/discovery": { enabled: false },
    "PUT /api/overlap/partners/{partnerId}": { level: "counts" },
    // The partner holds no list: whatever passes validation is a 409 and starts nothing.
    "POST /api/overlap/runs": {
      partnerId: buddies.partner.organizationId,
      population: "customers",
      partnerPopulation: "customers",
      points,
    },
    "POST /api/overlap/runs/{id}/answer": { doubled: points, points, level: "counts" },
    "POST /api/overlap/runs/{id}/complete": { doubled: points, level: "counts" },
    "PATCH /api/webhooks/{id}": {
      url: "https://hooks.fuzz.example/buddy",
      events: ["conversion.created"],
      enabled: true,
    },
  };
  base = (operation) => {
    const path = paths[operation.path] ?? {};
    for (const parameter of operation.parameters.filter((p) => p.in === "path")) {
      if (!path[parameter.name]) throw new Error(`${operation.name}: give {${parameter.name}} a real value`);
    }
    const body = bodies[operation.name];
    if (operation.body && !body) throw new Error(`${operation.name}: give it an otherwise-valid body`);
    return { path, query: queries[operation.name] ?? {}, body };
  };
});
afterAll(() => t.close());

const rowCounts = async () => {
  const tables = rowsOf<{ table_name: string }>(
    await t.database.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    ),
  );
  const counts: Record<string, number> = {};
  for (const { table_name: table } of tables) {
    const [row] = rowsOf<{ count: number | string }>(
      await t.database.db.execute(sql`select count(*) as count from ${sql.identifier(table)}`),
    );
    counts[table] = Number(row?.count);
  }
  return counts;
};

/** What is wrong with an answer to a hostile request, if anything. */
function problemWith(fuzz: { expect: Expectation }, response: LightMyRequestResponse): string | undefined {
  const status = response.statusCode;
  const expected = fuzz.expect === "4xx" ? status >= 400 && status < 500 : status === fuzz.expect;
  if (!expected) return `answered ${status}`;
  if (/\bat .+:\d+:\d+\)?$|node_modules/m.test(response.body)) return "a stack trace in the body";
  let body: unknown;
  try {
    body = response.json();
  } catch {
    return `not JSON: ${response.body.slice(0, 120)}`;
  }
  // CONTRACT §2's body, and nothing else (Fastify's own has error, code and statusCode too).
  if (!errorBodySchema.strict().safeParse(body).success) return "not the contract's {message} body";
  return undefined;
}

/** CONTRACT §5: whatever stands in a short link's code, it is not a code: 404, never a 400. */
const NOT_FOUND_FIELDS = new Set(["GET /s/{code} path.code"]);

const describeCase = (fuzz: FuzzCase, why: string) =>
  `${fuzz.operation} ${fuzz.field} ← ${fuzz.payload}: ${why}`;

describe("a fuzz of every route in the OpenAPI document", () => {
  it("answers every hostile field and body with a 4xx {message}, logs no error and stores nothing", async () => {
    const document = t.app.swagger() as unknown as OpenApiDocument;
    const operations = operationsOf(document);
    // The whole app: a document that lost its routes would make this test pass vacuously.
    expect(operations.length).toBeGreaterThanOrEqual(50);
    const cases = operations
      .flatMap((operation) =>
        fuzzCases(
          operation,
          base(operation),
          operation.apiKey ? { "x-api-key": apiKey.key } : buddies.org.headers,
        ),
      )
      .map((fuzz) =>
        NOT_FOUND_FIELDS.has(`${fuzz.operation} ${fuzz.field}`) ? { ...fuzz, expect: 404 as const } : fuzz,
      );
    const before = await rowCounts();
    const logged = log.length;
    const started = performance.now();
    const problems: string[] = [];
    for (const fuzz of cases) {
      const response = await t.app.inject(fuzz.request);
      const problem = problemWith(fuzz, response);
      if (problem) problems.push(describeCase(fuzz, `${problem} ${response.body.slice(0, 160)}`));
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);

    expect(problems).toEqual([]);
    expect(log.slice(logged).filter((entry) => entry.level >= 50 || entry.msg === "unhandled error")).toEqual(
      [],
    );
    expect(await rowCounts()).toEqual(before);

    const fieldCases = cases.filter((fuzz) => fuzz.field !== "body");
    const fields = new Set(fieldCases.map((fuzz) => `${fuzz.operation} ${fuzz.field}`));
    const bodies = new Set(cases.filter((fuzz) => fuzz.field === "body").map((fuzz) => fuzz.operation));
    const payloads = new Set(cases.map((fuzz) => fuzz.payload));
    console.info(
      `route fuzz (${t.database.kind}): ${operations.length} routes, ${fields.size} fields, ${bodies.size} ` +
        `bodies, ${payloads.size} payloads, ${cases.length} requests in ${seconds} s`,
    );
  });

  // Routes whose input the document cannot describe get their own hostile cases.

  it("refuses a hostile logo upload (multipart, which the document does not describe)", async () => {
    const boundary = "fuzzboundary";
    const part = (disposition: string, content: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\nContent-Type: image/png\r\n\r\n${content}\r\n`;
    const upload = (body: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/organization/logo",
        headers: { ...buddies.org.headers, "content-type": `multipart/form-data; boundary=${boundary}` },
        payload: body,
      });
    const bodies = {
      "a NUL in the file name": `${part(`name="logo"; filename="a${NUL}b.png"`, "not an image")}--${boundary}--\r\n`,
      "a NUL in the field name": `${part(`name="lo${NUL}go"; filename="a.png"`, "x")}--${boundary}--\r\n`,
      "a file that is no image": `${part('name="logo"; filename="a.png"', "not an image")}--${boundary}--\r\n`,
      "a text field, no file": `--${boundary}\r\nContent-Disposition: form-data; name="logo"\r\n\r\nx\r\n--${boundary}--\r\n`,
      "two files": `${part('name="logo"; filename="a.png"', "x")}${part('name="logo"; filename="b.png"', "y")}--${boundary}--\r\n`,
      "an unfinished body": part('name="logo"; filename="a.png"', "x"),
      "no parts": `--${boundary}--\r\n`,
    };
    const before = await rowCounts();
    const logged = log.length;
    const problems: string[] = [];
    for (const [name, body] of Object.entries(bodies)) {
      const problem = problemWith({ expect: "4xx" }, await upload(body));
      if (problem) problems.push(`${name}: ${problem}`);
    }
    expect(problems).toEqual([]);
    expect(log.slice(logged).filter((entry) => entry.level >= 50)).toEqual([]);
    expect(await rowCounts()).toEqual(before);
  });

  it("refuses a tracked link with a NUL in any parameter (read raw, for its signature)", async () => {
    const link = new URL(buddies.trackedUrl);
    const before = await rowCounts();
    for (const name of [...link.searchParams.keys()]) {
      const hostile = new URL(link);
      hostile.searchParams.set(name, `${hostile.searchParams.get(name)}${NUL}`);
      const response = await t.app.inject({ url: `${hostile.pathname}${hostile.search}` });
      expect(problemWith({ expect: 400 }, response), name).toBeUndefined();
    }
    expect(await rowCounts()).toEqual(before);
  });
});
