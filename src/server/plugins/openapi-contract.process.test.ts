import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { validateOutput } from "@stoplight/prism-http/dist/validator";
import type { IHttpOperation } from "@stoplight/types";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuddyProcess, startBuddy } from "../testing/buddy-process";
import { createScratchDatabase } from "../testing/database";
import { browserAgent, must, type Partners, setUpPartners } from "../testing/instances/partners";
import { tokenFrom } from "../testing/mail-receiver";
import { type PrismProxy, startPrismProxy } from "../testing/prism-proxy";

/**
 * Issue 28: the published OpenAPI document describes every answer of the public API. A real
 * server (the production bundle, on a database of its own) answers ordinary calls through
 * Stoplight Prism's validating proxy, which turns any answer the document does not describe into
 * a 500 problem or marks it with `sl-violations`.
 *
 * Two proxies read the same document. `strict` checks the requests too, as Prism does by default:
 * the calls a client generated from the document makes, whose answers must come from Buddy, not
 * from Prism. `lenient` lets through requests the document itself forbids (a `limit` of 9, a
 * missing date), so that Buddy's refusals of those are judged as well.
 *
 * Prism's proxy follows redirects (stoplightio/prism#1977): the 302s of the links are fetched
 * from Buddy without following and judged by Prism's own response validator, the proxy's.
 */

/** Each client address records at most this many new leads a minute through the pixel. */
const PIXEL_LIMIT = 3;
const STRIPE_SECRET = "whsec_contractSigningSecret0123456789";
/** The day every export asks for: today, UTC, so the set-up's clicks are in it. */
const today = new Date().toISOString().slice(0, 10);

let buddy: BuddyProcess;
let documentFolder: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
let strict: PrismProxy;
let lenient: PrismProxy;
let operations: IHttpOperation[];
let partners: Partners;
/** The sharer's key (its ads API shows the partner's ad) and the partner's (it receives clicks). */
let sharerKey: string;
let partnerKey: string;
/** A signed-in user who has not completed onboarding: no organization yet. */
let newcomerToken: string;
const started = performance.now();
const answered: string[] = [];

async function createApiKey(token: string): Promise<string> {
  const { key } = await must<{ key: string }>(buddy.origin, "/api/api-keys", token, {
    method: "POST",
    body: JSON.stringify({ name: "contract" }),
  });
  return key;
}

/** Signs up and verifies through the mailed link, without onboarding: a session token. */
async function signUpWithoutOrganization(): Promise<string> {
  const email = `newcomer-${Date.now()}@newcomer.bench.example`;
  const post = (url: string, body: object) =>
    fetch(`${buddy.origin}${url}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  expect((await post("/api/auth", { email, password: "Contract-pass1!", mode: "signup" })).status).toBe(201);
  const mail = await buddy.mail.waitFor((message) => message.to === email);
  const verified = await post("/api/verify-email", {
    token: tokenFrom(mail, `${buddy.origin}/verify-email`),
  });
  expect(verified.status).toBe(200);
  return ((await verified.json()) as { token: string }).token;
}

/** A reader's browser follows the sharer's short link: the click id its landing page receives. */
let reader = 0;
async function clickId(): Promise<string> {
  const response = await fetch(partners.shortUrl, {
    redirect: "manual",
    headers: { "user-agent": browserAgent(`contract-${++reader}`) },
  });
  const id = new URL(response.headers.get("location") ?? "").searchParams.get("bclickid");
  if (!id) throw new Error(`no click id: ${response.status} ${response.headers.get("location")}`);
  return id;
}

beforeAll(async () => {
  // On the PostgreSQL server when the API tests run there (CI's second run), else embedded PGlite.
  let databaseUrl: string | undefined;
  if (process.env.TEST_DATABASE_URL) {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL, "buddy_contract");
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
  }
  buddy = await startBuddy({
    databaseUrl,
    stdio: "capture",
    env: { PIXEL_RATE_LIMIT_PER_IP: String(PIXEL_LIMIT) },
  });
  partners = await setUpPartners(buddy.origin, buddy.mail, { prefix: "contract" });
  sharerKey = await createApiKey(partners.sharerToken);
  partnerKey = await createApiKey(partners.partnerToken);
  newcomerToken = await signUpWithoutOrganization();
  await must(buddy.origin, "/api/integrations/stripe", partners.partnerToken, {
    method: "PUT",
    body: JSON.stringify({ webhookSecret: STRIPE_SECRET }),
  });

  // The document as the server publishes it, which is what clients are generated from.
  const published = await fetch(`${buddy.origin}/api/openapi.json`);
  expect(published.status).toBe(200);
  documentFolder = mkdtempSync(path.join(tmpdir(), "buddy-contract-"));
  const document = path.join(documentFolder, "openapi.json");
  writeFileSync(document, await published.text());
  operations = await getHttpOperationsFromSpec(document);
  const readyPath = "/api/tracking/click.js";
  [strict, lenient] = await Promise.all([
    startPrismProxy({ document, upstream: buddy.origin, readyPath }),
    startPrismProxy({ document, upstream: buddy.origin, readyPath, validateRequests: false }),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([strict?.stop(), lenient?.stop()]);
  await buddy?.stop();
  await dropDatabase?.();
  if (documentFolder) rmSync(documentFolder, { recursive: true, force: true });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.info(
    `OpenAPI contract: ${answered.length} public calls judged by Prism, ${seconds} s with the start-up`,
  );
}, 60_000);

type Expected = { status: number; type?: string };

/**
 * One call through a proxy: what is wrong with its answer, or nothing. Wrong are a status other
 * than expected, any `sl-violations` (errors and warnings alike), an answer Prism made itself
 * instead of Buddy, and a media type other than expected.
 */
async function problemsOf(
  proxy: PrismProxy,
  url: string,
  expected: Expected,
  init: RequestInit = {},
): Promise<string[]> {
  const response = await fetch(`${proxy.origin}${url}`, { ...init, signal: AbortSignal.timeout(10_000) });
  const body = await response.text();
  const name = `${init.method ?? "GET"} ${url.split("?")[0]} (${proxy === strict ? "strict" : "lenient"})`;
  answered.push(`  ${response.status} ${name}`);
  const problems: string[] = [];
  const violations = response.headers.get("sl-violations");
  if (violations) problems.push(`${name}: violations ${violations}`);
  if (body.includes("stoplight.io/prism/errors")) problems.push(`${name}: answered by Prism: ${body}`);
  if (response.status !== expected.status)
    problems.push(`${name}: ${response.status} instead of ${expected.status}: ${body.slice(0, 200)}`);
  const type = response.headers.get("content-type") ?? "";
  if (expected.type && !type.startsWith(expected.type))
    problems.push(`${name}: content-type ${type} instead of ${expected.type}`);
  return problems;
}

/** Runs the calls in order and expects no problem, showing the answers and Prism's log if any. */
async function expectDescribed(calls: (() => Promise<string[]>)[]) {
  const problems: string[] = [];
  for (const call of calls) problems.push(...(await call()));
  if (problems.length > 0)
    console.error(`Answers:\n${answered.join("\n")}\nPrism:\n${strict.output()}\n${lenient.output()}`);
  expect(problems).toEqual([]);
}

const JSON_TYPE = "application/json";
const key = (value: string) => ({ headers: { "x-api-key": value } });
const postJson = (apiKey: string, body: object): RequestInit => ({
  method: "POST",
  headers: { "x-api-key": apiKey, "content-type": "application/json" },
  body: JSON.stringify(body),
});

describe("the published OpenAPI document, checked by Prism's validating proxy", () => {
  it("describes the ads API's JSON, HTML and text, and its refusals", async () => {
    await expectDescribed([
      () => problemsOf(strict, "/api/ads", { status: 200, type: JSON_TYPE }, key(sharerKey)),
      () =>
        problemsOf(strict, "/api/ads?format=json&limit=5", { status: 200, type: JSON_TYPE }, key(sharerKey)),
      () => problemsOf(strict, "/api/ads?format=html", { status: 200, type: "text/html" }, key(sharerKey)),
      () =>
        problemsOf(
          strict,
          "/api/ads?format=html&template=banner",
          { status: 200, type: "text/html" },
          key(sharerKey),
        ),
      () => problemsOf(strict, "/api/ads?format=text", { status: 200, type: "text/plain" }, key(sharerKey)),
      () => problemsOf(strict, "/api/ads", { status: 401, type: JSON_TYPE }, key("bk_live_unknown")),
      // The sharer has published no ad: its partner has none to show.
      () => problemsOf(strict, "/api/ads", { status: 404, type: JSON_TYPE }, key(partnerKey)),
      () => problemsOf(lenient, "/api/ads?limit=9", { status: 400, type: JSON_TYPE }, key(sharerKey)),
      () => problemsOf(lenient, "/api/ads?format=xml", { status: 400, type: JSON_TYPE }, key(sharerKey)),
    ]);
  });

  it("describes the links' redirects and their refusals", async () => {
    const short = new URL(partners.shortUrl);
    const listed = await must<{ id: string; trackedUrl: string }[]>(
      buddy.origin,
      `/api/marketing/collateral?organizationId=${partners.partnerId}`,
      partners.sharerToken,
    );
    const tracked = new URL(listed.find((ad) => ad.id === partners.collateralId)?.trackedUrl ?? "");
    const forged = new URL(tracked);
    forged.searchParams.set("sig", "forged");

    // The 302s, from Buddy itself (Prism's proxy would follow them), judged by Prism's validator.
    const problems: string[] = [];
    for (const [template, url] of [
      ["/s/{code}", short],
      ["/api/marketing/redirect", tracked],
    ] as const) {
      const response = await fetch(url, {
        redirect: "manual",
        headers: { "user-agent": browserAgent(`redirect-${template}`) },
      });
      answered.push(`  ${response.status} GET ${template} (Prism's validator)`);
      if (response.status !== 302) problems.push(`${template}: ${response.status} instead of 302`);
      if (!new URL(response.headers.get("location") ?? "").searchParams.get("bclickid"))
        problems.push(`${template}: no bclickid in ${response.headers.get("location")}`);
      const operation = operations.find((candidate) => candidate.path === template);
      if (!operation) throw new Error(`${template} is not in the document`);
      const verdict = validateOutput({
        resource: operation,
        element: {
          statusCode: response.status,
          headers: Object.fromEntries(response.headers),
          body: undefined,
        },
      });
      if ("left" in verdict) problems.push(`${template}: violations ${JSON.stringify(verdict.left)}`);
    }
    expect(problems).toEqual([]);

    await expectDescribed([
      () => problemsOf(strict, "/s/unknown-code", { status: 404, type: JSON_TYPE }),
      () => problemsOf(strict, `${forged.pathname}${forged.search}`, { status: 400, type: JSON_TYPE }),
      () => problemsOf(lenient, "/api/marketing/redirect", { status: 400, type: JSON_TYPE }),
    ]);
  });

  it("describes the pixel's GIF, its refusals and its limit per client", async () => {
    const [first, second, third] = [await clickId(), await clickId(), await clickId()];
    const pixel = (id: string, type = "signup") =>
      `/api/marketing/conversion/${id}?type=${type}&org=${partners.partnerId}`;
    await expectDescribed([
      () => problemsOf(strict, pixel(first), { status: 200, type: "image/gif" }),
      // A reload of the thank-you page: already recorded, the same GIF.
      () => problemsOf(strict, pixel(first), { status: 200, type: "image/gif" }),
      () => problemsOf(strict, pixel(first, "purchase"), { status: 200, type: "image/gif" }),
      () => problemsOf(strict, pixel(second, "renewal"), { status: 400, type: JSON_TYPE }),
      // It records leads only: money, event and customer ids are the keyed call's (CONTRACT §5).
      () =>
        problemsOf(lenient, `${pixel(second)}&value=49.99&currency=EUR`, { status: 400, type: JSON_TYPE }),
      () =>
        problemsOf(lenient, `${pixel(second)}&eventId=order-1&customerId=crm-1`, {
          status: 400,
          type: JSON_TYPE,
        }),
      () => problemsOf(strict, pixel("unknown-click-id"), { status: 404, type: JSON_TYPE }),
      () =>
        problemsOf(strict, `/api/marketing/conversion/${second}?type=signup&org=${partners.sharerId}`, {
          status: 404,
          type: JSON_TYPE,
        }),
      // The third new lead from this address (Prism's) this minute is the last: PIXEL_LIMIT.
      () => problemsOf(strict, pixel(second), { status: 200, type: "image/gif" }),
      () => problemsOf(strict, pixel(third), { status: 429, type: JSON_TYPE }),
    ]);
  });

  it("describes the conversion API's answers and its refusals", async () => {
    const id = await clickId();
    await expectDescribed([
      () =>
        problemsOf(
          strict,
          "/api/marketing/conversion",
          { status: 201, type: JSON_TYPE },
          postJson(partnerKey, { clickId: id, type: "trial" }),
        ),
      () =>
        problemsOf(
          strict,
          "/api/marketing/conversion",
          { status: 200, type: JSON_TYPE },
          postJson(partnerKey, { clickId: id, type: "trial" }),
        ),
      () =>
        problemsOf(
          strict,
          "/api/marketing/conversion",
          { status: 201, type: JSON_TYPE },
          postJson(partnerKey, {
            clickId: id,
            customerId: "cus_contract",
            type: "purchase",
            value: 49.99,
            currency: "EUR",
            eventId: "evt_contract_1",
            metadata: { plan: "team" },
          }),
        ),
      () =>
        problemsOf(
          strict,
          "/api/marketing/conversion",
          { status: 201, type: JSON_TYPE },
          postJson(partnerKey, { customerId: "cus_contract", type: "upgrade", value: 10 }),
        ),
      // Neither clickId nor customerId: the document cannot say "one of", Buddy does.
      () =>
        problemsOf(
          strict,
          "/api/marketing/conversion",
          { status: 400, type: JSON_TYPE },
          postJson(partnerKey, { type: "signup" }),
        ),
      () =>
        problemsOf(
          lenient,
          "/api/marketing/conversion",
          { status: 400, type: JSON_TYPE },
          postJson(partnerKey, { clickId: id, type: "renewal" }),
        ),
      () =>
        problemsOf(
          strict,
          "/api/marketing/conversion",
          { status: 401, type: JSON_TYPE },
          postJson("bk_live_unknown", { clickId: id, type: "signup" }),
        ),
      () =>
        problemsOf(
          strict,
          "/api/marketing/conversion",
          { status: 404, type: JSON_TYPE },
          postJson(partnerKey, { clickId: "unknown-click-id", type: "signup" }),
        ),
      // The sharer did not receive this click: only the partner's key may record its leads.
      () =>
        problemsOf(
          strict,
          "/api/marketing/conversion",
          { status: 404, type: JSON_TYPE },
          postJson(sharerKey, { clickId: id, type: "signup" }),
        ),
      () =>
        problemsOf(
          strict,
          "/api/marketing/conversion",
          { status: 404, type: JSON_TYPE },
          postJson(partnerKey, { customerId: "cus_never_bound", type: "purchase" }),
        ),
    ]);
  });

  it("describes the CSV exports, for a key and a session, and their refusals", async () => {
    const range = `from=${today}&to=${today}`;
    const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    await expectDescribed([
      () =>
        problemsOf(
          strict,
          `/api/exports/conversions.csv?${range}`,
          { status: 200, type: "text/csv" },
          key(partnerKey),
        ),
      () =>
        problemsOf(
          strict,
          `/api/exports/clicks.csv?${range}`,
          { status: 200, type: "text/csv" },
          key(sharerKey),
        ),
      () =>
        problemsOf(
          strict,
          `/api/exports/clicks.csv?${range}`,
          { status: 200, type: "text/csv" },
          bearer(partners.partnerToken),
        ),
      () =>
        problemsOf(
          strict,
          "/api/exports/conversions.csv?from=2026-02-30&to=2026-03-01",
          { status: 400, type: JSON_TYPE },
          key(partnerKey),
        ),
      () =>
        problemsOf(
          strict,
          "/api/exports/clicks.csv?from=2025-01-01&to=2026-12-31",
          { status: 400, type: JSON_TYPE },
          key(partnerKey),
        ),
      () =>
        problemsOf(
          lenient,
          `/api/exports/clicks.csv?from=${today}`,
          { status: 400, type: JSON_TYPE },
          key(partnerKey),
        ),
      () =>
        problemsOf(
          strict,
          `/api/exports/conversions.csv?${range}`,
          { status: 401, type: JSON_TYPE },
          key("bk_live_unknown"),
        ),
      () =>
        problemsOf(
          strict,
          `/api/exports/conversions.csv?${range}`,
          { status: 401, type: JSON_TYPE },
          bearer("expired-session"),
        ),
      () =>
        problemsOf(
          strict,
          `/api/exports/conversions.csv?${range}`,
          { status: 403, type: JSON_TYPE },
          bearer(newcomerToken),
        ),
    ]);
  });

  it("describes the install scripts, fresh and not modified", async () => {
    const fresh = await fetch(`${buddy.origin}/api/tracking/conversion.js`);
    const etag = fresh.headers.get("etag") ?? "";
    await fresh.arrayBuffer();
    const scriptType = "application/javascript";
    await expectDescribed([
      () => problemsOf(strict, "/api/tracking/click.js", { status: 200, type: scriptType }),
      () => problemsOf(strict, "/api/tracking/conversion.js", { status: 200, type: scriptType }),
      () =>
        problemsOf(
          strict,
          "/api/tracking/conversion.js",
          { status: 304 },
          { headers: { "if-none-match": etag } },
        ),
    ]);
  });

  it("describes the Stripe webhook's answers", async () => {
    const url = `/api/integrations/stripe/webhook/${partners.partnerId}`;
    const payload = JSON.stringify({
      id: "evt_contract_other",
      object: "event",
      type: "customer.created",
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: "cus_contract_new", object: "customer" } },
    });
    const signed = (signature: string): RequestInit => ({
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body: payload,
    });
    await expectDescribed([
      () =>
        problemsOf(
          strict,
          url,
          { status: 200, type: JSON_TYPE },
          signed(Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET })),
        ),
      () => problemsOf(strict, url, { status: 400, type: JSON_TYPE }, signed("t=1,v1=forged")),
      () =>
        problemsOf(
          strict,
          `/api/integrations/stripe/webhook/${partners.sharerId}`,
          { status: 400, type: JSON_TYPE },
          signed(Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET })),
        ),
    ]);
  });
});
