import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

const id = () =>
  text()
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID());
const createdAt = () => timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow();
const time = () => timestamp({ withTimezone: true, mode: "date" });

// ── Accounts ────────────────────────────────────────────────────────────────

export const users = pgTable("users", {
  id: id(),
  /** Stored trimmed and lower-cased: one account per address. */
  email: text().notNull().unique(),
  passwordHash: text().notNull(),
  emailVerifiedAt: time(),
  createdAt: createdAt(),
  updatedAt: createdAt(),
});

/** Bearer sessions: only the SHA-256 of the token is kept, so a database leak yields no usable token. */
export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text().notNull().unique(),
    createdAt: createdAt(),
    expiresAt: time().notNull(),
    revokedAt: time(),
  },
  (t) => [index().on(t.userId)],
);

export const ONE_TIME_TOKEN_PURPOSES = ["verify_email", "reset_password"] as const;
export type OneTimeTokenPurpose = (typeof ONE_TIME_TOKEN_PURPOSES)[number];

/** Verification and reset tokens: hashed, single-use, expiring. */
export const oneTimeTokens = pgTable(
  "one_time_tokens",
  {
    id: id(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text({ enum: ONE_TIME_TOKEN_PURPOSES }).notNull(),
    tokenHash: text().notNull().unique(),
    createdAt: createdAt(),
    expiresAt: time().notNull(),
    usedAt: time(),
  },
  (t) => [index().on(t.userId, t.purpose)],
);

// ── Organizations ───────────────────────────────────────────────────────────

export const organizations = pgTable("organizations", {
  id: id(),
  name: text().notNull(),
  /** The normalised domain (CONTRACT §4): one organization per domain. */
  domain: text().notNull().unique(),
  website: text().notNull(),
  description: text(),
  industry: text(),
  size: integer(),
  category: text(),
  isPlatformUser: boolean().notNull().default(false),
  createdAt: createdAt(),
  updatedAt: createdAt(),
});

export const MEMBERSHIP_ROLES = ["admin", "member"] as const;
export const MEMBERSHIP_STATUSES = ["active", "pending"] as const;

export const memberships = pgTable(
  "memberships",
  {
    id: id(),
    organizationId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text({ enum: MEMBERSHIP_ROLES }).notNull().default("member"),
    status: text({ enum: MEMBERSHIP_STATUSES }).notNull().default("pending"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex().on(t.organizationId, t.userId),
    // A user belongs to at most one organization as an active member.
    uniqueIndex("memberships_one_active_per_user").on(t.userId).where(sql`${t.status} = 'active'`),
  ],
);

// ── Mail ────────────────────────────────────────────────────────────────────

export const MAIL_STATUSES = ["pending", "sent", "failed"] as const;

/**
 * Durable outbox: a request that triggers mail only inserts a row (in its own transaction),
 * so it succeeds while SMTP is down; the worker sends with retries and backoff.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: id(),
    to: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    html: text().notNull(),
    status: text({ enum: MAIL_STATUSES }).notNull().default("pending"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: time().notNull().defaultNow(),
    /** Claimed by a worker until then; another instance may retry after it passes. */
    lockedUntil: time(),
    lastError: text(),
    createdAt: createdAt(),
    sentAt: time(),
  },
  (t) => [index().on(t.status, t.nextAttemptAt)],
);
