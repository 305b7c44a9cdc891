import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { normalizeWebsite } from "@shared/website";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { buildApp } from "../app";
import { type Config, loadConfig } from "../config";
import {
  type ChangeNotifications,
  createChangeNotifications,
  type ListenerOptions,
} from "../db/change-notifications";
import type { Database } from "../db/client";
import type { BillingGateway } from "../modules/billing/billing-gateway";
import type { DomainProverOptions } from "../modules/domain-control/domain-prover";
import type { WebhookDeliveryOptions } from "../modules/webhooks/webhook-delivery";
import { MIGRATIONS_FOLDER, openTestDatabase } from "./database";
import { type MailReceiver, startMailReceiver, tokenFrom } from "./mail-receiver";

export const TEST_PUBLIC_URL = "http://buddy.test";
export const STRONG_PASSWORD = "Sup3r-secret!";

export type TestApp = {
  app: FastifyInstance;
  database: Database;
  notifications: ChangeNotifications;
  mail: MailReceiver;
  config: Config;
  close(): Promise<void>;
};

/** The real app over a fresh database, with a real SMTP receiver and a fixed secret. */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    perAddressLimit?: { points: number; durationSeconds: number };
    smtpUrl?: string;
    /** Another test app's SMTP receiver (left open on close): instances share one mail provider. */
    mail?: MailReceiver;
    /** Another test app's database: a second instance beside it (left open on close). */
    database?: Database;
    /** Change listener timing (reconnection backoff), for tests that cut its connection. */
    listener?: ListenerOptions;
    /** Billing against a local fake Stripe. */
    billingGateway?: BillingGateway;
    /** Proofs of domain control against local sites and a local DNS server (testing/domain-proof.ts). */
    domainProof?: Pick<DomainProverOptions, "fetchPage" | "resolver">;
    /** Fastify's logger option (pino's, with a `stream` to read the log); none by default. */
    logger?: object;
    /** A first start-up step (main.ts migrates there), e.g. one held back to test start-up. */
    migrate?: () => Promise<void>;
    /** Answer once start-up has finished (the default), or as soon as the app is built. */
    awaitStartUp?: boolean;
    /** A built SPA folder to serve (the API alone by default). */
    webRoot?: string;
    /** The Ads API's random draws. */
    random?: () => number;
    /** Webhook delivery's clock, timeout and name resolution. */
    webhooks?: Partial<WebhookDeliveryOptions>;
    /** The periodic tasks' clock (the weekly digest runs at the first outbox tick). */
    clock?: () => Date;
  } = {},
): Promise<TestApp> {
  const mail = options.mail ?? (await startMailReceiver());
  // An instance's own folder; the database itself is given separately.
  const dataDir = mkdtempSync(path.join(tmpdir(), "buddy-test-"));
  const config = loadConfig({
    PUBLIC_URL: TEST_PUBLIC_URL,
    APP_SECRET: "test-secret-test-secret-test-secret-0123",
    SMTP_URL: options.smtpUrl ?? mail.url,
    RATE_LIMIT_PER_IP: "0",
    DATA_DIR: dataDir,
    ...options.env,
  });
  const database = options.database ?? (await openTestDatabase());
  const notifications = await createChangeNotifications(database, {
    log: quietListenerLog,
    ...options.listener,
  });
  const app = await buildApp({
    config,
    db: database.db,
    tryLock: database.tryLock,
    migrationsFolder: MIGRATIONS_FOLDER,
    migrate: options.migrate,
    webRoot: options.webRoot,
    poolStats: database.poolStats,
    logger: options.logger ?? false,
    outbox: { pollIntervalMs: 100, retryBaseMs: 100, retryMaxMs: 300 },
    perAddressLimit: options.perAddressLimit,
    notifications,
    billingGateway: options.billingGateway,
    domainProof: options.domainProof,
    webhooks: options.webhooks,
    random: options.random,
    clock: options.clock,
  });
  await app.ready();
  if (options.awaitStartUp !== false) await app.lifecycle.started;
  return {
    app,
    database,
    mail,
    config,
    notifications,
    async close() {
      await app.close();
      await notifications.close();
      if (!options.database) await database.close();
      if (!options.mail) await mail.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// A test that cuts the listener's connection expects the warning; it is not news.
const quietListenerLog = { info() {}, warn() {} };

export const authHeader = (token: string) => ({ authorization: `Bearer ${token}` });

export async function signUp(t: TestApp, email: string, password = STRONG_PASSWORD) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/auth",
    payload: { email, password, mode: "signup" },
  });
  expect(response.statusCode).toBe(201);
  return response;
}

/** Signs up, follows the verification mail's link and returns the session token and user. */
export async function signUpVerified(t: TestApp, email: string, password = STRONG_PASSWORD) {
  const before = t.mail.messages.length;
  const { signupSecret } = (await signUp(t, email, password)).json() as { signupSecret: string };
  const mail = await t.mail.waitFor(
    (m) =>
      m.to === email.toLowerCase() &&
      t.mail.messages.indexOf(m) >= before &&
      m.text.includes("/verify-email?token="),
  );
  const token = tokenFrom(mail, `${TEST_PUBLIC_URL}/verify-email`);
  const response = await t.app.inject({
    method: "POST",
    url: "/api/verify-email",
    payload: { token, signupSecret },
  });
  expect(response.statusCode).toBe(200);
  return response.json() as { token: string; user: { id: string; email: string } };
}

export type OnboardingOverrides = Partial<{
  companyName: string;
  website: string;
  description: string;
  transactionalEmailProvider: string;
  marketingEmailProvider: string;
  selectedCompetitors: string[];
  selectedComplements: string[];
}>;

/** A complete onboarding form for a company and its website (SPEC §5), with any field replaced. */
export const onboardingForm = (
  companyName: string,
  website: string,
  overrides: OnboardingOverrides = {},
) => ({
  companyName,
  website,
  description: `${companyName} makes software for testing purposes.`,
  transactionalEmailProvider: "postmark",
  marketingEmailProvider: "mailchimp",
  selectedCompetitors: [] as string[],
  selectedComplements: [] as string[],
  ...overrides,
});

/**
 * A verified user who completed onboarding: the admin of a new organization. Their address is at
 * the organization's domain, which proves it (CONTRACT §4, proof (a)).
 */
export async function createOrganization(t: TestApp, label: string, overrides: OnboardingOverrides = {}) {
  const domain = normalizeWebsite(overrides.website ?? `https://${label}.example`);
  const email = `${label}-${crypto.randomUUID().slice(0, 8)}@${domain}`;
  const { token } = await signUpVerified(t, email);
  const response = await t.app.inject({
    method: "POST",
    url: "/api/onboarding",
    headers: authHeader(token),
    payload: onboardingForm(label.slice(0, 25), `https://${label}.example`, {
      description: `${label} makes software for testing purposes.`,
      ...overrides,
    }),
  });
  expect(response.statusCode, response.body).toBe(201);
  const { user } = response.json() as { user: { id: string; organizationId: string } };
  return {
    token,
    email,
    domain,
    userId: user.id,
    organizationId: user.organizationId,
    headers: authHeader(token),
  };
}

/** A second, verified user made an active member (role member) of an organization. */
export async function addMember(t: TestApp, organizationId: string, role: "member" | "admin" = "member") {
  const email = `member-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const { token, user } = await signUpVerified(t, email);
  const { memberships } = await import("../db/schema");
  await t.database.db.insert(memberships).values({ organizationId, userId: user.id, role, status: "active" });
  return { token, email, userId: user.id, headers: authHeader(token) };
}

/** A new API key of the organization (shown once): the key and its id. */
export async function createApiKey(
  t: TestApp,
  org: { headers: Record<string, string> },
  name = "test",
): Promise<{ key: string; id: string }> {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/api-keys",
    headers: org.headers,
    payload: { name },
  });
  if (response.statusCode !== 201)
    throw new Error(`API key not created: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** `org` adds an existing organization to its Buddies or its block list (SPEC §4), as the UI does. */
export async function relate(
  t: TestApp,
  org: { headers: Record<string, string> },
  organizationId: string,
  type: "complement" | "competitor",
) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/relationships",
    headers: org.headers,
    payload: { organizationId, type },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string };
}
