import { AUTH_MESSAGES } from "@shared/auth";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { oneTimeTokens, sessions, users } from "../../db/schema";
import { hashPassword } from "../../lib/passwords";
import { hashToken } from "../../lib/tokens";
import { createTestApp, signUpVerified, TEST_PUBLIC_URL, type TestApp } from "../../testing/app";
import { openTestDatabase } from "../../testing/database";
import { mailJobs } from "../../testing/mail-jobs";
import { tokenFrom } from "../../testing/mail-receiver";
import { requestPasswordReset } from "./password-reset-request";

// CONTRACT §3: forgot-password must not tell which addresses have accounts, not even by its time.
describe("forgot-password's request", () => {
  let database: Database;
  beforeAll(async () => {
    // No app, so no outbox worker: what is stored is the request's work alone.
    database = await openTestDatabase();
    await database.db
      .insert(users)
      .values({ email: "known@example.com", passwordHash: await hashPassword("Sup3r-secret!") });
  });
  afterAll(() => database.close());

  const snapshot = async () => ({
    users: await database.db.select().from(users),
    tokens: await database.db.select().from(oneTimeTokens),
    sessions: await database.db.select().from(sessions),
    outbox: await mailJobs(database),
  });

  it("does the same work for an address with an account and one without: one outbox row each", async () => {
    const deps = { db: database.db, publicUrl: TEST_PUBLIC_URL, onMailQueued: () => {} };
    const before = await snapshot();
    await requestPasswordReset(deps, "Known@Example.com ");
    const afterKnown = await snapshot();
    await requestPasswordReset(deps, "ghost@example.com");
    const afterGhost = await snapshot();

    for (const [from, to] of [
      [before, afterKnown],
      [afterKnown, afterGhost],
    ] as const) {
      expect(to.users).toEqual(from.users);
      expect(to.tokens).toEqual(from.tokens);
      expect(to.sessions).toEqual(from.sessions);
      expect(to.outbox).toHaveLength(from.outbox.length + 1);
    }
    const [known, ghost] = afterGhost.outbox.map(({ id, to, createdAt, runAt, ...rest }) => ({ to, rest }));
    expect(known?.to).toBe("known@example.com");
    expect(ghost?.to).toBe("ghost@example.com");
    expect(known?.rest).toEqual(ghost?.rest);
  });
});

describe("forgot-password's mail", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("is decided by the outbox worker: a reset link for an account, nothing for an unknown address", async () => {
    const { user } = await signUpVerified(t, "owner@example.com");
    const post = (email: string) =>
      t.app.inject({ method: "POST", url: "/api/forgot-password", payload: { email } });
    const unknown = await post("nobody@example.com");
    const known = await post("owner@example.com");
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: AUTH_MESSAGES.resetRequested });
    expect(unknown.json()).toEqual(known.json());

    const mail = await t.mail.waitFor(
      (m) => m.to === "owner@example.com" && m.text.includes("/reset-password?token="),
    );
    const token = tokenFrom(mail, `${TEST_PUBLIC_URL}/reset-password`);
    await expect
      .poll(async () => {
        await t.app.outbox.drain();
        const rows = await mailJobs(t.database);
        return rows
          .filter((row) => row.to === "owner@example.com" || row.to === "nobody@example.com")
          .filter((row) => row.kind === "password_reset")
          .map((row) => [row.to, row.status])
          .sort();
      })
      .toEqual([
        ["nobody@example.com", "skipped"],
        ["owner@example.com", "done"],
      ]);
    expect(t.mail.messages.some((m) => m.to === "nobody@example.com")).toBe(false);

    // The token is stored only as its hash, and the mail itself is never kept.
    const [stored] = await t.database.db
      .select()
      .from(oneTimeTokens)
      .where(eq(oneTimeTokens.purpose, "reset_password"));
    expect(stored).toMatchObject({ userId: user.id, tokenHash: hashToken(token) });
    const everything = JSON.stringify(await mailJobs(t.database));
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(encodeURIComponent(token));
  });
});
