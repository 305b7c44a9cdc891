import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { buildApp } from "./app";
import { type Config, loadConfig } from "./config";
import type { Database } from "./db/client";
import { openTestDatabase } from "./test-database";
import { type MailReceiver, startMailReceiver, tokenFrom } from "./test-mail-receiver";

export const TEST_PUBLIC_URL = "http://buddy.test";
export const STRONG_PASSWORD = "Sup3r-secret!";

export type TestApp = {
  app: FastifyInstance;
  database: Database;
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
    mail?: MailReceiver;
  } = {},
): Promise<TestApp> {
  const mail = options.mail ?? (await startMailReceiver());
  const config = loadConfig({
    PUBLIC_URL: TEST_PUBLIC_URL,
    APP_SECRET: "test-secret-test-secret-test-secret-0123",
    SMTP_URL: options.smtpUrl ?? mail.url,
    RATE_LIMIT_PER_IP: "0",
    DATA_DIR: "/nonexistent",
    ...options.env,
  });
  const database = await openTestDatabase();
  const app = await buildApp({
    config,
    db: database.db,
    logger: false,
    outbox: { pollIntervalMs: 100, retryBaseMs: 100, retryMaxMs: 300 },
    perAddressLimit: options.perAddressLimit,
  });
  await app.ready();
  return {
    app,
    database,
    mail,
    config,
    async close() {
      await app.close();
      await database.close();
      await mail.close();
    },
  };
}

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
  await signUp(t, email, password);
  const mail = await t.mail.waitFor(
    (m) =>
      m.to === email.toLowerCase() &&
      t.mail.messages.indexOf(m) >= before &&
      m.text.includes("/verify-email?token="),
  );
  const token = tokenFrom(mail, `${TEST_PUBLIC_URL}/verify-email`);
  const response = await t.app.inject({ method: "POST", url: "/api/verify-email", payload: { token } });
  expect(response.statusCode).toBe(200);
  return response.json() as { token: string; user: { id: string; email: string } };
}
