import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { CLICK_REASONS } from "../../shared/click-reasons";
import { COLLATERAL_STATUSES, COLLATERAL_TYPES } from "../../shared/collateral";
import { DOMAIN_PROOF_METHODS } from "../../shared/domain-verification";
import type { OnboardingInput } from "../../shared/onboarding";
import { OVERLAP_LEVELS, OVERLAP_POPULATIONS, OVERLAP_RUN_STATUSES } from "../../shared/overlap";
import { RELATIONSHIP_STATUSES, RELATIONSHIP_TYPES } from "../../shared/relationships";
import { SECURITY_LOG_ACTIONS, SECURITY_LOG_ADDRESS_ACTIONS } from "../../shared/security-log";
import { CONVERSION_CHANNELS, CONVERSION_TYPES, REFUND_KINDS } from "../../shared/tracking";
import { generateToken } from "../lib/tokens";

const id = () =>
  text()
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID());
/**
 * The id of a row in a table partitioned by time (data-lifecycle/partitioned-tables.ts): its primary
 * key is (id, the partitioning column), since PostgreSQL enforces uniqueness per partition only.
 */
const partitionedId = () =>
  text()
    .notNull()
    .$defaultFn(() => crypto.randomUUID());
const createdAt = () => timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow();
const time = () => timestamp({ withTimezone: true, mode: "date" });
// Rows that belong to an organization or a user go with it.
const organizationRef = () =>
  text()
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" });
const userRef = () =>
  text()
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

// ── Accounts ────────────────────────────────────────────────────────────────

export const users = pgTable("users", {
  id: id(),
  /** Stored trimmed and lower-cased: one account per address. */
  email: text().notNull().unique(),
  /**
   * Null until a password is usable: an unverified sign-up's password waits on its verification
   * token, and a verification without the sign-up's secret voids it (CONTRACT §3).
   */
  passwordHash: text(),
  emailVerifiedAt: time(),
  createdAt: createdAt(),
  updatedAt: createdAt(),
});

/** Bearer sessions: only the SHA-256 of the token is kept, so a database leak yields no usable token. */
export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    userId: userRef(),
    tokenHash: text().notNull().unique(),
    createdAt: createdAt(),
    expiresAt: time().notNull(),
    revokedAt: time(),
  },
  (t) => [index().on(t.userId)],
);

export const ONE_TIME_TOKEN_PURPOSES = [
  "verify_email",
  "reset_password",
  "delete_account",
  "delete_organization",
] as const;
export type OneTimeTokenPurpose = (typeof ONE_TIME_TOKEN_PURPOSES)[number];

/** Verification and reset tokens: hashed, single-use, expiring. */
export const oneTimeTokens = pgTable(
  "one_time_tokens",
  {
    id: id(),
    userId: userRef(),
    purpose: text({ enum: ONE_TIME_TOKEN_PURPOSES }).notNull(),
    tokenHash: text().notNull().unique(),
    createdAt: createdAt(),
    expiresAt: time().notNull(),
    usedAt: time(),
    /** A sign-up's chosen password, usable only once this token is verified with its secret. */
    passwordHash: text(),
    /** SHA-256 of the `signupSecret` the sign-up answered to the browser that chose the password. */
    signupSecretHash: text(),
    /** The organization a `delete_organization` token deletes, if its admin still is one then. */
    organizationId: text().references(() => organizations.id, { onDelete: "cascade" }),
  },
  (t) => [index().on(t.userId, t.purpose)],
);

/**
 * Who did what to an account or an organization, and from where (CONTRACT §3): kept 180 days,
 * read by the organization's admins. The actor's e-mail is copied so an entry outlives its user.
 */
/** Constant literals (no input): the partial index's predicate, as the migration writes it. */
const ADDRESS_ACTIONS_SQL = sql.raw(
  `(${SECURITY_LOG_ADDRESS_ACTIONS.map((action) => `'${action}'`).join(", ")})`,
);

export const securityLog = pgTable(
  "security_log",
  {
    id: partitionedId(),
    organizationId: text().references(() => organizations.id, { onDelete: "cascade" }),
    actorUserId: text().references(() => users.id, { onDelete: "set null" }),
    actorEmail: text(),
    action: text({ enum: SECURITY_LOG_ACTIONS }).notNull(),
    /** What the action was about, in words: a key's name, an endpoint's URL, an invitee's address. */
    target: text(),
    ipAddress: text(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.createdAt] }),
    index("security_log_organization_idx").on(t.organizationId, t.createdAt.desc(), t.id.desc()),
    index("security_log_created_idx").on(t.createdAt),
    // Deleting a person (issue 38): what they did, and the entries that name their address.
    index("security_log_actor_user_idx").on(t.actorUserId).where(sql`${t.actorUserId} is not null`),
    index("security_log_address_target_idx")
      .on(t.createdAt)
      .where(sql`${t.action} in ${ADDRESS_ACTIONS_SQL}`),
  ],
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
  /** A catalog category slug (suggestions engine), found from the catalog or the description. */
  category: text(),
  /**
   * When someone proved control of `domain`, and how; null while nobody has (catalog entries, and
   * organizations set up before proof was required). The one record of "proven": the platform
   * badge, ads and approvals all derive from it.
   */
  domainVerifiedAt: time(),
  domainVerificationMethod: text({ enum: DOMAIN_PROOF_METHODS }),
  /**
   * A website change to a domain the organization has not proven waits here, with the name given
   * with it: the organization keeps its proven domain, name and badge until an admin proves this
   * one (CONTRACT §4), so nobody can park a proven organization on a domain it does not control.
   */
  pendingDomain: text(),
  pendingName: text(),
  /**
   * The token an admin publishes in a meta tag or TXT record to prove the pending domain, or the
   * domain itself while it is not proven. Renewed whenever the domain to prove changes.
   */
  verificationToken: text()
    .notNull()
    .$defaultFn(() => generateToken(18)),
  /** The last "Check again" for it: checks are spaced (each one fetches the site). */
  domainCheckedAt: time(),
  transactionalEmailProvider: text(),
  marketingEmailProvider: text(),
  /** Bumped on each logo upload; null while the organization has no logo. */
  logoVersion: integer(),
  /** When the stored suggestions were last computed (SPEC §9: cached until refreshed). */
  suggestionsGeneratedAt: time(),
  /** Opted into account overlap with organizations that are not Buddies (CONTRACT §11). */
  overlapDiscovery: boolean().notNull().default(false),
  createdAt: createdAt(),
  updatedAt: createdAt(),
});

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** Logos live in the database so every instance serves the same bytes (no local folder). */
export const organizationLogos = pgTable("organization_logos", {
  organizationId: text()
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  image: bytea().notNull(),
  updatedAt: createdAt(),
});

/**
 * Onboarding with a domain its user has not proven (CONTRACT §4): nothing is owned yet. The form
 * waits here, with the user's own token, until a check finds the proof; then onboarding completes.
 * One open claim per user; several users may claim one domain, each with their own token.
 */
export const domainClaims = pgTable(
  "domain_claims",
  {
    id: id(),
    userId: text()
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    domain: text().notNull(),
    token: text()
      .notNull()
      .$defaultFn(() => generateToken(18)),
    /** The onboarding form as submitted, replayed once the domain is proven. */
    onboarding: jsonb().$type<OnboardingInput>().notNull(),
    createdAt: createdAt(),
    checkedAt: time(),
  },
  (t) => [index().on(t.domain)],
);

/**
 * Organizations whose e-mail proof must be judged again by the runtime's rule
 * (`domain-control/email-proof.ts`): filled by migrations, which cannot apply the free-mail list
 * or the public-suffix rule in SQL, and emptied at start-up (`domain-control/legacy-proof-review.ts`).
 */
export const domainProofReviews = pgTable("domain_proof_reviews", {
  organizationId: text()
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  createdAt: createdAt(),
});

export const MEMBERSHIP_ROLES = ["admin", "member"] as const;
export const MEMBERSHIP_STATUSES = ["active", "pending"] as const;

export const memberships = pgTable(
  "memberships",
  {
    id: id(),
    organizationId: organizationRef(),
    userId: userRef(),
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

/**
 * Team invitations (CONTRACT §7): the mailed token is single-use and expires; only its SHA-256
 * is kept. One open invitation per organization and address.
 */
export const teamInvitations = pgTable(
  "team_invitations",
  {
    id: id(),
    organizationId: organizationRef(),
    /** Stored trimmed and lower-cased, like users.email. */
    email: text().notNull(),
    role: text({ enum: MEMBERSHIP_ROLES }).notNull().default("member"),
    tokenHash: text().notNull().unique(),
    invitedByUserId: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: time().notNull(),
    usedAt: time(),
  },
  (t) => [
    uniqueIndex("team_invitations_one_open").on(t.organizationId, t.email).where(sql`${t.usedAt} is null`),
    index().on(t.email),
  ],
);

// ── Relationships ───────────────────────────────────────────────────────────

/**
 * One row per (source, target) pair: SPEC §4's add rules update the pair's row rather than
 * adding another. An active competitor row is a block-list entry (CONTRACT §4).
 */
export const relationships = pgTable(
  "relationships",
  {
    id: id(),
    sourceOrgId: organizationRef(),
    targetOrgId: organizationRef(),
    type: text({ enum: RELATIONSHIP_TYPES }).notNull(),
    status: text({ enum: RELATIONSHIP_STATUSES }).notNull(),
    notes: text(),
    /** For suggestions: why it was suggested and how sure we are (SPEC §3). */
    reason: text(),
    confidence: real(),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (t) => [
    uniqueIndex().on(t.sourceOrgId, t.targetOrgId),
    index().on(t.targetOrgId, t.type, t.status),
    index().on(t.sourceOrgId, t.type, t.status),
  ],
);

/** Suggestions a user removed: a refresh does not bring them back. */
export const dismissedSuggestions = pgTable(
  "dismissed_suggestions",
  {
    organizationId: organizationRef(),
    targetOrgId: organizationRef(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.targetOrgId] })],
);

/**
 * Issue 38: organizations deleted on request, by id alone. Their links then redirect plainly, and
 * their partners' roll-ups name them "Deleted organization".
 */
export const deletedOrganizations = pgTable("deleted_organizations", {
  id: text().primaryKey(),
  deletedAt: createdAt(),
  /** Once its raw events are gone too: erased after the deletion commits, a chunk at a time. */
  eventsErasedAt: time(),
});

/** Small key/value facts about the database itself (e.g. which catalog version is seeded). */
export const appState = pgTable("app_state", {
  key: text().primaryKey(),
  value: text().notNull(),
  updatedAt: createdAt(),
});

// ── Account overlap ─────────────────────────────────────────────────────────
// CONTRACT §11. The lists stay in the browsers; the server holds which lists exist, each side's
// sharing level per partner, and runs: blinded points while one is in flight, its result after.

/** The lists an organization's browser holds, by size only, so partners can choose one to compare. */
export const overlapPopulations = pgTable(
  "overlap_populations",
  {
    organizationId: organizationRef(),
    population: text({ enum: OVERLAP_POPULATIONS }).notNull(),
    domainCount: integer().notNull(),
    updatedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.population] })],
);

/** One side's sharing level for one partner (Counts without a row), and its consent to take part. */
export const overlapPartnerSettings = pgTable(
  "overlap_partner_settings",
  {
    organizationId: organizationRef(),
    partnerId: organizationRef(),
    level: text({ enum: OVERLAP_LEVELS }).notNull(),
    consentedAt: time(),
    updatedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.partnerId] })],
);

export const overlapRuns = pgTable(
  "overlap_runs",
  {
    id: id(),
    starterId: organizationRef(),
    responderId: organizationRef(),
    starterPopulation: text({ enum: OVERLAP_POPULATIONS }).notNull(),
    responderPopulation: text({ enum: OVERLAP_POPULATIONS }).notNull(),
    /** The two lists, in an order that does not depend on who started: one run per pair per 24 h. */
    pairKey: text().notNull(),
    status: text({ enum: OVERLAP_RUN_STATUSES }).notNull(),
    /** Fixed when the responder answers: the lower of both levels then (lowered again at the end). */
    level: text({ enum: ["counts", "overlaps"] }),
    startedByUserId: text().references(() => users.id, { onDelete: "set null" }),
    /** a·H(x), then b·(a·H(x)) and b·H(y): 32 bytes a point, dropped once the run ends. */
    starterPoints: bytea(),
    responderDoubled: bytea(),
    responderPoints: bytea(),
    overlapCount: integer(),
    /** Overlaps mode: positions of the shared accounts in the points each side sent. */
    starterMatches: integer().array(),
    responderMatches: integer().array(),
    createdAt: createdAt(),
    answeredAt: time(),
    completedAt: time(),
    expiresAt: time().notNull(),
  },
  (t) => [
    index().on(t.responderId, t.status),
    index().on(t.starterId, t.status),
    index().on(t.pairKey, t.createdAt),
  ],
);

// ── Marketing ───────────────────────────────────────────────────────────────

/**
 * An ad for `organizationId` (the company it advertises, CONTRACT §5). A company writes its own,
 * or generates one for a Buddy from its tool page; only the creator may edit it.
 */
export const collateral = pgTable(
  "collateral",
  {
    id: id(),
    organizationId: organizationRef(),
    createdByOrganizationId: organizationRef(),
    type: text({ enum: COLLATERAL_TYPES }).notNull().default("email_cta"),
    name: text().notNull(),
    description: text().notNull(),
    ctaText: text().notNull(),
    ctaUrl: text().notNull(),
    imageUrl: text(),
    status: text({ enum: COLLATERAL_STATUSES }).notNull().default("draft"),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (t) => [index().on(t.organizationId, t.status), index().on(t.createdByOrganizationId)],
);

/** Public API keys: only a hash is stored; the prefix and last 4 characters identify it in lists. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: id(),
    organizationId: organizationRef(),
    name: text().notNull(),
    prefix: text().notNull(),
    last4: text().notNull(),
    keyHash: text().notNull().unique(),
    createdAt: createdAt(),
    lastUsedAt: time(),
    revokedAt: time(),
  },
  (t) => [index().on(t.organizationId)],
);

// ── Tracking ────────────────────────────────────────────────────────────────

/** A short code for one signed tracked link (CONTRACT §5): /s/<code> follows it. */
export const shortLinks = pgTable("short_links", {
  code: text().primaryKey(),
  /** SHA-256 of the tracked link, so shortening the same link twice gives the same code. */
  linkHash: text().notNull().unique(),
  relationshipId: text().notNull(),
  collateralId: text().notNull(),
  /**
   * No foreign keys: a deleted organization's links outlive it, to take readers to the page
   * plainly (issue 38). The row holds no personal data.
   */
  sourceOrgId: text().notNull(),
  targetOrgId: text().notNull(),
  url: text().notNull(),
  createdAt: createdAt(),
});

/**
 * Every hit on a tracked link, bots and repeats included; only `verified` ones count as clicks.
 * No raw address is kept: `visitorHash` is a hash with a salt that changes every day.
 */
export const clickEvents = pgTable(
  "click_events",
  {
    /** The click id handed to the landing page as bclickid; it carries `occurredAt` (click-id.ts). */
    id: text().notNull(),
    shortCode: text(),
    relationshipId: text().notNull(),
    collateralId: text().notNull(),
    sourceOrgId: text().notNull(),
    targetOrgId: text().notNull(),
    occurredAt: timestamp({ withTimezone: true, mode: "date" }).notNull(),
    method: text().notNull(),
    visitorHash: text().notNull(),
    userAgent: text(),
    referrerHost: text(),
    bot: boolean().notNull(),
    botReason: text(),
    duplicate: boolean().notNull(),
    verified: boolean().notNull(),
    /**
     * CONTRACT §5: why it counted or did not; `counted` exactly when `verified`. The click store
     * always names it; the default only dates clicks stored before reasons were kept (migration
     * 0020 derived theirs from the flags).
     */
    reason: text({ enum: CLICK_REASONS }).notNull().default("counted"),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.occurredAt] }),
    index().on(t.sourceOrgId, t.occurredAt),
    index().on(t.targetOrgId, t.occurredAt),
  ],
);

/**
 * Each UTC day's random salt for `clickEvents.visitorHash`, shared by every instance and deleted
 * once the next day is over too (tracking/visitor-hash.ts): old hashes cannot be reversed.
 */
export const visitorSalts = pgTable("visitor_salts", {
  day: date({ mode: "string" }).primaryKey(),
  salt: text().notNull(),
  createdAt: createdAt(),
});

/** A lead: one per click and type, enforced by the unique index, not by reading first. */
export const conversions = pgTable(
  "conversions",
  {
    id: id(),
    /**
     * No foreign key: the signed click id proves the click (tracking/clicks/click-id.ts), and a
     * lead is checked by arithmetic alone, without reading the click's row. A conversion sent with
     * only a customer id carries the click its customer was bound to.
     */
    clickId: text().notNull(),
    type: text({ enum: CONVERSION_TYPES }).notNull(),
    /** CONTRACT §8: integer minor units of `currency` (4999 USD = 49.99), null without a value. */
    valueMinor: bigint({ mode: "number" }),
    currency: text(),
    /** The advertiser's own customer id, when one was sent. */
    customerId: text(),
    /** The organization's idempotency key, when one was sent. */
    eventId: text(),
    /** The first conversion of its (click, type): the lead. Later ones carry revenue only. */
    isLead: boolean().notNull().default(true),
    metadata: jsonb(),
    sourceOrgId: text().notNull(),
    targetOrgId: text().notNull(),
    createdAt: createdAt(),
    /** How it was recorded; null for conversions recorded before channels were kept. */
    channel: text({ enum: CONVERSION_CHANNELS }),
    /** The Stripe payment intent it was recorded from, so its refunds and disputes find it. */
    paymentIntentId: text(),
    /** Minor units taken back so far by refunds and disputes (less those given back). */
    refundedMinor: bigint({ mode: "number" }).notNull().default(0),
  },
  (t) => [
    index("conversions_payment_intent")
      .on(t.targetOrgId, t.paymentIntentId)
      .where(sql`${t.paymentIntentId} is not null`),
    // One lead per click and type; a repeat without an event id is a duplicate of it.
    uniqueIndex("conversions_one_lead").on(t.clickId, t.type).where(sql`${t.isLead}`),
    uniqueIndex("conversions_event_id").on(t.targetOrgId, t.eventId).where(sql`${t.eventId} is not null`),
    index().on(t.targetOrgId, t.createdAt),
    index().on(t.sourceOrgId, t.createdAt),
  ],
);

/**
 * CONTRACT §8: revenue taken back from a conversion (a refund or a dispute, `valueMinor` > 0) or
 * given back (a dispute won, < 0), in the conversion's currency, on the day it happened. A
 * repeated `refundId` of one organization is the same refund.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: id(),
    /** The advertiser: the conversion's target, whose key or Stripe sent it. */
    organizationId: text().notNull(),
    conversionId: text()
      .notNull()
      .references(() => conversions.id, { onDelete: "cascade" }),
    /** The organization's idempotency key, or the Stripe object (`re_…`, `du_…`) it came from. */
    refundId: text().notNull(),
    kind: text({ enum: REFUND_KINDS }).notNull(),
    valueMinor: bigint({ mode: "number" }).notNull(),
    currency: text().notNull(),
    channel: text({ enum: CONVERSION_CHANNELS }).notNull(),
    sourceOrgId: text().notNull(),
    targetOrgId: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("refunds_refund_id").on(t.organizationId, t.refundId),
    index().on(t.conversionId),
    index().on(t.targetOrgId, t.createdAt),
    index().on(t.sourceOrgId, t.createdAt),
  ],
);

/**
 * CONTRACT §8: a customer of the advertiser (`organizationId`), bound to the click that brought
 * them by the first conversion that carried both. Later conversions that name only the customer
 * are that click's for CUSTOMER_ATTRIBUTION_DAYS from `boundAt`.
 */
export const CUSTOMER_BINDING_CHANNELS = ["key", "stripe"] as const;

export const customerBindings = pgTable(
  "customer_bindings",
  {
    organizationId: text().notNull(),
    customerId: text().notNull(),
    clickId: text().notNull(),
    sourceOrgId: text().notNull(),
    boundAt: createdAt(),
    /**
     * The channel that bound it (CONTRACT §5): the organization's API key or its Stripe. A key's
     * binding replaces Stripe's, never the other way round.
     */
    boundBy: text({ enum: CUSTOMER_BINDING_CHANNELS }).notNull().default("key"),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.customerId] }),
    // A deleted organization's bindings as the sharer, looked for by each pass for 31 days.
    index().on(t.sourceOrgId),
  ],
);

/**
 * Revenue per partner pair, day and currency, kept in the same statement as the conversions, so
 * revenue reads never scan them (source = the organization that shared the link).
 */
export const pairDailyRevenue = pgTable(
  "pair_daily_revenue",
  {
    day: date({ mode: "string" }).notNull(),
    sourceOrgId: text().notNull(),
    targetOrgId: text().notNull(),
    currency: text().notNull(),
    valueMinor: bigint({ mode: "number" }).notNull().default(0),
    conversions: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.sourceOrgId, t.targetOrgId, t.currency] }),
    index().on(t.sourceOrgId, t.day),
    index().on(t.targetOrgId, t.day),
  ],
);

/**
 * An organization's own Stripe webhook signing secret (CONTRACT §8), encrypted with a key derived
 * from APP_SECRET: never shown again, and useless without the deployment's secret.
 */
export const stripeConnections = pgTable("stripe_connections", {
  organizationId: text()
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  webhookSecretSealed: text().notNull(),
  connectedAt: createdAt(),
  /** When a signed event last arrived, so the admin sees that the connection works. */
  lastEventAt: time(),
});

/**
 * Verified clicks and leads per partner pair and day, kept up to date in the same transaction as
 * the events, so metrics never scan the events (source = the organization that shared the link).
 */
export const pairDailyStats = pgTable(
  "pair_daily_stats",
  {
    day: date({ mode: "string" }).notNull(),
    sourceOrgId: text().notNull(),
    targetOrgId: text().notNull(),
    clicks: integer().notNull().default(0),
    leads: integer().notNull().default(0),
    /** The leads of `leads` recorded with the advertiser's own API key or Stripe (CONTRACT §10). */
    provenLeads: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.sourceOrgId, t.targetOrgId] }),
    // Each side's window of days (the partners' ledger, the chart) without the rest of its history.
    index().on(t.sourceOrgId, t.day),
    index().on(t.targetOrgId, t.day),
  ],
);

/**
 * The calendar periods the per-partner roll-ups add days up into: a year, a month, and a part of a
 * month (days 1–8, 9–16, 17–24, and 25 to the month's end). `starts` is the period's first day.
 */
export const ROLLUP_PERIODS = ["year", "month", "part"] as const;

/**
 * The roll-ups by organization, partner and calendar period (UTC), both ways in one row: what the
 * organization sent the partner (as the sharer: `pair_daily_stats` rows with source =
 * organization) and what it received from it (source = partner); each pair's periods are here
 * twice, once from each side. Triggers on the daily tables keep every row equal to the sum of its
 * days, whatever writes a day, in the same transaction (migration 0016). Any window of days up to
 * today is then a few periods and days added or taken away (`modules/reciprocity/period-window.ts`): at most 2 years,
 * 6 months, 2 parts and 4 days per partner, 18 rows, where the days alone are up to 730 for a year.
 */
export const partnerPeriodStats = pgTable(
  "partner_period_stats",
  {
    organizationId: text().notNull(),
    partnerId: text().notNull(),
    period: text({ enum: ROLLUP_PERIODS }).notNull(),
    starts: date({ mode: "string" }).notNull(),
    clicksSent: bigint({ mode: "number" }).notNull().default(0),
    clicksReceived: bigint({ mode: "number" }).notNull().default(0),
    leadsSent: bigint({ mode: "number" }).notNull().default(0),
    leadsReceived: bigint({ mode: "number" }).notNull().default(0),
    provenLeadsSent: bigint({ mode: "number" }).notNull().default(0),
    provenLeadsReceived: bigint({ mode: "number" }).notNull().default(0),
  },
  (t) => [
    // The only index, so that adding to a period's row (every batch of clicks) can stay in its page.
    primaryKey({
      name: "partner_period_stats_pk",
      columns: [t.organizationId, t.period, t.starts, t.partnerId],
    }),
  ],
);

/** `pair_daily_revenue` by organization, partner and period, as `partner_period_stats` is. */
export const partnerPeriodRevenue = pgTable(
  "partner_period_revenue",
  {
    organizationId: text().notNull(),
    partnerId: text().notNull(),
    period: text({ enum: ROLLUP_PERIODS }).notNull(),
    starts: date({ mode: "string" }).notNull(),
    currency: text().notNull(),
    valueSent: bigint({ mode: "number" }).notNull().default(0),
    valueReceived: bigint({ mode: "number" }).notNull().default(0),
    conversionsSent: bigint({ mode: "number" }).notNull().default(0),
    conversionsReceived: bigint({ mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({
      name: "partner_period_revenue_pk",
      columns: [t.organizationId, t.period, t.starts, t.partnerId, t.currency],
    }),
  ],
);

// ── Billing and notifications ──────────────────────────────────────────────

/**
 * The organization's Stripe subscription as last told by a signed webhook (or a call we made).
 * No row: the free plan of the beta.
 */
export const billingAccounts = pgTable("billing_accounts", {
  organizationId: text()
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  stripeCustomerId: text().notNull().unique(),
  stripeSubscriptionId: text().unique(),
  subscriptionStatus: text(),
  priceId: text(),
  currentPeriodEnd: time(),
  cancelAtPeriodEnd: boolean().notNull().default(false),
  /** `created` of the last Stripe event applied, so a late, older event cannot undo a newer one. */
  lastEventAt: time(),
  updatedAt: createdAt(),
});

/**
 * Issue 37 item 8: each person's mail choices (SPEC §2's four toggles); no row means the
 * defaults, every kind on but product news.
 */
export const notificationPreferences = pgTable("notification_preferences", {
  userId: text()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  emailNotifications: boolean().notNull().default(true),
  marketingEmails: boolean().notNull().default(false),
  newCompetitorAlerts: boolean().notNull().default(true),
  weeklyDigest: boolean().notNull().default(true),
  updatedAt: createdAt(),
});

/**
 * Notices sent once for good (a first lead from a partner, a week's digest to a person): the key
 * names the notice and its subject, inserted in the transaction that queues the mail, so any
 * number of instances send it once.
 */
export const notificationsSent = pgTable("notifications_sent", {
  key: text().primaryKey(),
  createdAt: createdAt(),
});

// ── Outbox ──────────────────────────────────────────────────────────────────

/** What the outbox delivers: mail (mail/mail-jobs.ts) and webhook messages (modules/webhooks). */
export const JOB_KINDS = ["mail", "webhook"] as const;
export type JobKind = (typeof JOB_KINDS)[number];
/** `skipped`: done with nothing to send (a mail composed to nothing, a webhook endpoint gone). */
export const JOB_STATUSES = ["pending", "done", "failed", "skipped"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * Durable outbox of everything Buddy sends (outbox/job-worker.ts): a request or an event only
 * inserts a row, in its own transaction, so a change and what it must send commit together and
 * a lost instance delays a delivery, never loses it. Any instance's worker claims due rows with
 * SKIP LOCKED and a lease; `attempts` counts claims and fences a lease that ran out.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: partitionedId(),
    kind: text({ enum: JOB_KINDS }).notNull(),
    /**
     * Jobs for one destination (a webhook endpoint) share a key: a worker runs few of them at once,
     * so a slow receiver never holds the others' deliveries.
     */
    partitionKey: text(),
    payload: jsonb().notNull(),
    status: text({ enum: JOB_STATUSES }).notNull().default("pending"),
    attempts: integer().notNull().default(0),
    runAt: time().notNull().defaultNow(),
    /** Claimed by a worker until then; another instance may take it after it passes. */
    lockedUntil: time(),
    lastError: text(),
    createdAt: createdAt(),
    finishedAt: time(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.createdAt] }),
    index("jobs_due").on(t.runAt).where(sql`${t.status} = 'pending'`),
    index().on(t.partitionKey, t.createdAt),
    index().on(t.finishedAt),
  ],
);

// ── Webhooks ────────────────────────────────────────────────────────────────

/** CONTRACT §9: where an organization's events go, and the secret they are signed with. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: id(),
    organizationId: organizationRef(),
    url: text().notNull(),
    events: text().array().notNull(),
    enabled: boolean().notNull().default(true),
    /** The `whsec_…` signing secret, sealed (lib/sealed-secrets.ts): Buddy signs with it, never shows it again. */
    secretSealed: text().notNull(),
    /** Its last 4 characters, for the masked list. */
    secretHint: text().notNull(),
    /** After a rotation the previous secret signs beside the new one until `previousSecretExpiresAt`. */
    previousSecretSealed: text(),
    previousSecretExpiresAt: time(),
    /** The first failed attempt since the last success: failing for long enough disables the endpoint. */
    failingSince: time(),
    /** Why it was disabled, when Buddy disabled it (an admin's choice leaves it null). */
    disabledReason: text(),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (t) => [index().on(t.organizationId)],
);

export const WEBHOOK_ATTEMPT_STATUSES = ["succeeded", "failed"] as const;

/** Every delivery attempt, for the endpoint's deliveries list; kept 30 days. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: partitionedId(),
    endpointId: text()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** The message's `webhook-id`, the same on every attempt (the outbox job's id). */
    messageId: text().notNull(),
    eventType: text().notNull(),
    /** From 1. */
    attempt: integer().notNull(),
    status: text({ enum: WEBHOOK_ATTEMPT_STATUSES }).notNull(),
    responseStatus: integer(),
    durationMs: integer().notNull(),
    /** The response's first 1 KB, or why there was none. */
    responseBody: text(),
    /** The body sent, as signed (its first 16 KB), for the deliveries drawer. */
    requestBody: text(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.id, t.createdAt] }), index().on(t.endpointId, t.createdAt)],
);
